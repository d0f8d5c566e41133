"""The server: what runs the app under gunicorn.

The WSGI layers around the Flask app (request id, metrics, body limit), the
metrics and their exposition on the master's own port, the JSON logs, and
the gevent worker that takes turns and answers gunicorn's own refusals as
problems. gunicorn.conf.py turns these into gunicorn's settings.
"""
