# The baccarat service: gunicorn serving service.app:create_app().
#
# Two stages: the first builds a virtual environment from pyproject.toml, the
# second copies it into a clean image that runs as a numeric non-root user on
# a read-only root filesystem (the only writable places are /tmp and the
# metrics directory, volumes in k8s/deployment.yaml).
#
#   docker build -t baccarat-service:1.0.0 .
#   docker run --rm -p 8000:8000 -e BACCARAT_API_KEYS=change-me-to-a-long-secret baccarat-service:1.0.0

FROM python:3.11.13-slim-bookworm AS build

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /src
# The project's own files only (see .dockerignore): its dependencies are the
# ranges in pyproject.toml. Building the package compiles every translation
# catalogue into it (setup.py), so no file of the package is named here.
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY service ./service
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir .

FROM python:3.11.13-slim-bookworm AS runtime

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PATH=/opt/venv/bin:$PATH \
    HOST=0.0.0.0 \
    PORT=8000 \
    METRICS_PORT=9100 \
    PROMETHEUS_MULTIPROC_DIR=/run/metrics

RUN groupadd --system --gid 10001 baccarat \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin baccarat \
    && mkdir -p /run/metrics \
    && chown 10001:10001 /run/metrics

COPY --from=build /opt/venv /opt/venv
WORKDIR /app
COPY gunicorn.conf.py ./

USER 10001:10001
# 8000: the API; 9100: Prometheus metrics and liveness, served by gunicorn's master.
EXPOSE 8000 9100

# No curl in a slim image: the probe is Python's own HTTP client. It asks the
# master, as the kubelet's liveness probe does: a busy worker is not unhealthy.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request as u; u.urlopen('http://127.0.0.1:%s/livez' % os.environ.get('METRICS_PORT', '9100'), timeout=2)"]

# Exec form: gunicorn is PID 1 and receives SIGTERM itself (graceful shutdown).
ENTRYPOINT ["gunicorn", "--config", "/app/gunicorn.conf.py"]
CMD ["service.app:create_app()"]
