"""Views: parse, call the engine, return. Nothing else."""

import flask_smorest

from ..parsing import JsonParser


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, reading JSON bodies with the safe parser."""

    ARGUMENTS_PARSER = JsonParser()
