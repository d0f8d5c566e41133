"""The yardstick: an empty Flask JSON endpoint, served with the same gunicorn
settings as the service. It parses the JSON body it is sent and answers
``{}``: the least any JSON endpoint can do."""

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue


def create_app() -> Flask:
    app = Flask(__name__)

    @app.post("/empty")
    def empty() -> ResponseReturnValue:
        request.get_json()
        return jsonify({})

    @app.get("/readyz")
    def readyz() -> ResponseReturnValue:
        return jsonify(status="ok")

    return app
