"""The deployment, checked offline: the Dockerfile (hadolint, and its command
line run here), the Kubernetes manifests (kubernetes-validate --strict, and
the settings that matter asserted one by one), gunicorn.conf.py
(``--check-config``) and docs/reference/configuration.md's list of environment variables.

hadolint and kubernetes-validate come from the test extras in pyproject.toml;
a missing tool fails these tests, it never skips them.
"""

import json
import os
import re
import runpy
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from service.server import config
from tests.servers import free_port

ROOT = Path(__file__).parents[1]
BIN = Path(sys.executable).parent
K8S = ROOT / "k8s"


def tool(name):
    path = BIN / name
    assert path.exists(), f"{name} is missing: `make install` installs it from pyproject.toml's test extras"
    return str(path)


def run(*command, **kwargs):
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120, **kwargs)


# --- Dockerfile ---------------------------------------------------------


def instructions(text):
    """``[(INSTRUCTION, arguments)]`` of a Dockerfile, continuations joined."""
    logical = re.sub(
        r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    )
    return [
        (parts[0].upper(), parts[1] if len(parts) > 1 else "")
        for line in logical.splitlines()
        if (parts := line.strip().split(None, 1))
    ]


DOCKERFILE = instructions((ROOT / "Dockerfile").read_text())


def last(instruction):
    return [arguments for name, arguments in DOCKERFILE if name == instruction][-1]


def image_environment():
    """The ENV of the final stage."""
    stages = [i for i, (name, _) in enumerate(DOCKERFILE) if name == "FROM"]
    environment = {}
    for name, arguments in DOCKERFILE[stages[-1] :]:
        if name == "ENV":
            environment.update(pair.split("=", 1) for pair in shlex.split(arguments))
    return environment


def test_hadolint_finds_nothing():
    result = run(tool("hadolint"), "Dockerfile")
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


def test_hadolint_does_find_problems():
    """The linter really lints: a careless Dockerfile fails it."""
    careless = "FROM python:latest\nRUN apt-get install curl\nCMD gunicorn app\n"
    result = run(tool("hadolint"), "-", input=careless)
    assert result.returncode != 0
    assert "DL3007" in result.stdout  # the latest tag


def test_the_image_is_multi_stage_from_one_pinned_slim_base():
    bases = [arguments.split()[0] for name, arguments in DOCKERFILE if name == "FROM"]
    assert len(bases) >= 2
    assert len(set(bases)) == 1
    assert re.fullmatch(r"python:\d+\.\d+\.\d+-slim-\w+", bases[0]), bases[0]


def test_the_image_runs_as_a_numeric_non_root_user():
    user, _, group = last("USER").partition(":")
    assert user.isdigit()
    assert int(user) != 0
    assert group.isdigit()
    assert int(group) != 0


def test_the_image_sets_python_for_containers():
    environment = image_environment()
    assert environment["PYTHONDONTWRITEBYTECODE"] == "1"
    assert environment["PYTHONUNBUFFERED"] == "1"


def test_entrypoint_and_healthcheck_are_exec_form_and_use_python():
    entrypoint, command = json.loads(last("ENTRYPOINT")), json.loads(last("CMD"))
    assert entrypoint[0] == "gunicorn"
    assert command == ["service.app:create_app()"]
    healthcheck = last("HEALTHCHECK")
    assert "CMD [" in healthcheck
    assert json.loads(healthcheck.split("CMD", 1)[1])[0] == "python"


def test_dockerignore_is_an_allowlist_of_what_the_image_copies():
    patterns = [line for line in (ROOT / ".dockerignore").read_text().splitlines() if line and line[0] != "#"]
    assert patterns[0] == "*"  # nothing local (.venv, .git, a stray .env) gets in by default
    allowed = {pattern.removeprefix("!").rstrip("/") for pattern in patterns if pattern.startswith("!")}
    copied = {
        source.rstrip("/")
        for name, arguments in DOCKERFILE
        if name == "COPY" and "--from" not in arguments
        for source in arguments.split()[:-1]
    }
    assert copied <= allowed


def test_the_image_build_names_no_file_inside_the_package():
    """The image installs the package as any build makes it (setup.py compiles
    every translation catalogue into it): what it copies is top-level files and
    whole directories, and no command names a catalogue, a domain or a file of
    the package, which a change to the tree (a domain added) could leave out."""
    copied = [
        source
        for name, arguments in DOCKERFILE
        if name == "COPY" and "--from" not in arguments
        for source in arguments.split()[:-1]
    ]
    assert all("/" not in source.rstrip("/") for source in copied), copied
    commands = " ".join(arguments for name, arguments in DOCKERFILE if name == "RUN")
    assert not re.findall(r"service/\S*|locales|pybabel|msgfmt|\S+\.(?:mo|po)\b", commands)


def localised(argument, workdir):
    """A path inside the image, as the same file in the working tree."""
    if argument == "gunicorn":
        return str(BIN / "gunicorn")
    if argument.startswith(workdir + "/"):
        return str(ROOT / argument.removeprefix(workdir + "/"))
    return argument


@pytest.mark.server
def test_the_image_command_line_starts_the_app(tmp_path):
    """No Docker engine here: run the image's ENTRYPOINT + CMD with its ENV
    (loopback address and a free port instead of 0.0.0.0:8000), then its
    HEALTHCHECK command, then stop it as Docker would, with SIGTERM."""
    workdir = last("WORKDIR")
    command = [localised(a, workdir) for a in json.loads(last("ENTRYPOINT")) + json.loads(last("CMD"))]
    environment = {key: value for key, value in image_environment().items() if key != "PATH"}
    port = free_port()
    environment.update(
        HOST="127.0.0.1",
        PORT=str(port),
        METRICS_PORT=str(free_port()),
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"),
    )
    env = {**os.environ, **environment}
    healthcheck = json.loads(last("HEALTHCHECK").split("CMD", 1)[1])
    healthcheck[0] = sys.executable
    process = subprocess.Popen(
        command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while subprocess.run(healthcheck, env=env, capture_output=True).returncode != 0:
            assert process.poll() is None, "gunicorn exited"
            assert time.monotonic() < deadline, "the HEALTHCHECK never passed"
            time.sleep(0.2)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/rounds",
            data=json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"]}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.load(response)["outcome"] == "banker"
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
        exit_code = process.wait(timeout=30)
    assert exit_code == 0


# --- Kubernetes manifests -----------------------------------------------


def manifests():
    return sorted(path for path in K8S.glob("*.yaml") if path.name != "kustomization.yaml")


def resource(kind):
    (found,) = [
        doc for path in manifests() for doc in yaml.safe_load_all(path.read_text()) if doc["kind"] == kind
    ]
    return found


@pytest.mark.parametrize("path", manifests(), ids=lambda path: path.name)
def test_kubernetes_validate_strict(path):
    result = run(tool("kubernetes-validate"), "--strict", "--quiet", str(path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_kubernetes_validate_does_reject_an_unknown_field(tmp_path):
    """The validator really validates, offline, from the schemas it ships."""
    typo = tmp_path / "typo.yaml"
    typo.write_text(
        (K8S / "deployment.yaml").read_text().replace("readOnlyRootFilesystem", "readOnlyRootFileSystem")
    )
    result = run(tool("kubernetes-validate"), "--strict", "--quiet", str(typo))
    assert result.returncode != 0
    assert "readOnlyRootFileSystem" in result.stdout + result.stderr


def test_kustomization_lists_every_manifest():
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert sorted(kustomization["resources"]) == sorted(path.name for path in manifests())


DEPLOYMENT = resource("Deployment")
POD = DEPLOYMENT["spec"]["template"]["spec"]
(CONTAINER,) = POD["containers"]
POD_LABELS = DEPLOYMENT["spec"]["template"]["metadata"]["labels"]


def test_rolling_update_never_goes_below_capacity():
    strategy = DEPLOYMENT["spec"]["strategy"]
    assert strategy["type"] == "RollingUpdate"
    assert strategy["rollingUpdate"]["maxUnavailable"] == 0
    assert DEPLOYMENT["spec"]["selector"]["matchLabels"].items() <= POD_LABELS.items()


@pytest.mark.parametrize(
    ("probe", "path", "port"),
    [
        # A worker answers: the app is loaded and takes traffic.
        ("startupProbe", "/readyz", "http"),
        ("readinessProbe", "/readyz", "http"),
        # The master answers: a busy worker never fails it (docs/performance.md, "Probes").
        ("livenessProbe", "/livez", "metrics"),
    ],
)
def test_probes(probe, path, port):
    check = CONTAINER[probe]["httpGet"]
    assert check["path"] == path
    assert check["port"] == port
    assert port in {port["name"] for port in CONTAINER["ports"]}


def test_resources_have_requests_and_a_memory_limit():
    resources = CONTAINER["resources"]
    assert {"cpu", "memory"} <= resources["requests"].keys()
    assert "memory" in resources["limits"]


def test_restricted_pod_security():
    pod, container = POD["securityContext"], CONTAINER["securityContext"]
    assert pod["runAsNonRoot"] is True
    assert pod["seccompProfile"] == {"type": "RuntimeDefault"}
    assert container["allowPrivilegeEscalation"] is False
    assert container["readOnlyRootFilesystem"] is True
    assert container["capabilities"]["drop"] == ["ALL"]
    assert container["seccompProfile"] == {"type": "RuntimeDefault"}
    # The same numeric user as the image's USER.
    user, _, group = last("USER").partition(":")
    assert pod["runAsUser"] == container["runAsUser"] == int(user)
    assert pod["runAsGroup"] == int(group)
    assert POD["automountServiceAccountToken"] is False


def mounts():
    volumes = {volume["name"]: volume for volume in POD["volumes"]}
    return {mount["mountPath"]: volumes[mount["name"]] for mount in CONTAINER["volumeMounts"]}


def writable_mounts():
    return {path: volume for path, volume in mounts().items() if not read_only(path)}


def read_only(path):
    return next(
        mount.get("readOnly", False) for mount in CONTAINER["volumeMounts"] if mount["mountPath"] == path
    )


def test_the_only_writable_places_are_empty_dirs_for_tmp_and_metrics():
    configmap = resource("ConfigMap")["data"]
    metrics_dir = configmap["PROMETHEUS_MULTIPROC_DIR"]
    assert set(writable_mounts()) == {"/tmp", metrics_dir}
    assert all("emptyDir" in volume for volume in writable_mounts().values())
    assert image_environment()["PROMETHEUS_MULTIPROC_DIR"] == metrics_dir


def test_the_signing_keys_are_a_secret_mounted_read_only_where_the_configmap_names_them():
    configmap = resource("ConfigMap")["data"]
    files = [configmap["BACCARAT_SIGNING_KEY_FILE"], configmap["BACCARAT_PUBLISHED_KEYS_FILE"]]
    (folder,) = {str(Path(file).parent) for file in files}
    assert read_only(folder)
    assert mounts()[folder]["secret"]["secretName"] == "baccarat-signing-key"
    assert "optional" not in mounts()[folder]["secret"]  # no key, no start: fail closed


def test_the_tables_are_a_generated_configmap_mounted_read_only_where_the_configmap_names_them():
    """The approved tables come from k8s/tables.json, in a ConfigMap kustomize
    names after its contents (a change rolls the pods), and only they are played."""
    configmap = resource("ConfigMap")["data"]
    path = Path(configmap["BACCARAT_TABLES_FILE"])
    assert configmap["BACCARAT_APPROVED_TABLES_ONLY"] == "true"
    assert read_only(str(path.parent))
    assert mounts()[str(path.parent)]["configMap"]["name"] == "baccarat-tables"
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    (generated,) = kustomization["configMapGenerator"]
    assert generated["name"] == "baccarat-tables"
    assert generated["files"] == [path.name]
    assert "disableNameSuffixHash" not in generated.get("options", {})
    assert (K8S / path.name).is_file()


def gunicorn_settings():
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_graceful_timeout_fits_in_the_grace_period_after_the_pre_stop_sleep():
    sleep = CONTAINER["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    grace = POD["terminationGracePeriodSeconds"]
    assert gunicorn_settings()["graceful_timeout"] < grace - int(sleep[1])


def test_pods_spread_over_nodes():
    spread = POD["topologySpreadConstraints"]
    assert "kubernetes.io/hostname" in {constraint["topologyKey"] for constraint in spread}
    assert all(
        constraint["labelSelector"]["matchLabels"].items() <= POD_LABELS.items() for constraint in spread
    )


def test_the_service_pdb_and_network_policy_select_the_pods():
    for selector in (
        resource("Service")["spec"]["selector"],
        resource("PodDisruptionBudget")["spec"]["selector"]["matchLabels"],
        resource("NetworkPolicy")["spec"]["podSelector"]["matchLabels"],
    ):
        assert selector
        assert selector.items() <= POD_LABELS.items()
    assert resource("Service")["spec"]["ports"][0]["targetPort"] == "http"


def test_the_network_policy_opens_http_to_clients_metrics_to_prometheus_and_no_egress():
    policy = resource("NetworkPolicy")["spec"]
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    assert policy["egress"] == []
    clients, prometheus = policy["ingress"]
    assert [port["port"] for port in clients["ports"]] == ["http"]
    assert [port["port"] for port in prometheus["ports"]] == ["metrics"]
    (source,) = prometheus["from"]
    assert source["podSelector"]["matchLabels"] == {"app.kubernetes.io/name": "prometheus"}
    ports = {port["name"]: port["containerPort"] for port in CONTAINER["ports"]}
    assert ports["metrics"] == int(resource("ConfigMap")["data"]["METRICS_PORT"])
    annotations = DEPLOYMENT["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(ports["metrics"])


def test_the_autoscaler_scales_the_deployment_on_cpu():
    hpa = resource("HorizontalPodAutoscaler")
    assert hpa["apiVersion"] == "autoscaling/v2"
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": DEPLOYMENT["metadata"]["name"],
    }
    assert [metric["resource"]["name"] for metric in hpa["spec"]["metrics"]] == ["cpu"]
    assert hpa["spec"]["minReplicas"] >= 2


def test_the_configmap_sets_only_known_variables_and_the_container_port():
    data = resource("ConfigMap")["data"]
    known = {variable.name for variable in config.VARIABLES}
    assert set(data) <= known
    assert int(data["PORT"]) == CONTAINER["ports"][0]["containerPort"]
    assert data["HOST"] == "0.0.0.0"
    assert CONTAINER["envFrom"] == [{"configMapRef": {"name": resource("ConfigMap")["metadata"]["name"]}}]
    (keys,) = CONTAINER["env"]
    assert keys["name"] == "BACCARAT_API_KEYS"
    assert "secretKeyRef" in keys["valueFrom"]


# --- gunicorn.conf.py ---------------------------------------------------


def test_gunicorn_check_config():
    result = run(tool("gunicorn"), "--check-config", "-c", "gunicorn.conf.py", "service.app:create_app()")
    assert result.returncode == 0, result.stdout + result.stderr


def test_gunicorn_settings_that_matter():
    settings = gunicorn_settings()
    assert settings["preload_app"] is False
    assert settings["worker_tmp_dir"] == "/dev/shm"
    assert settings["control_socket_disable"] is True
    assert settings["worker_class"] == "service.server.worker.Worker"  # gevent, problem+json errors
    assert settings["logger_class"] == "service.server.logs.AccessLogger"
    assert callable(settings["on_starting"])
    assert callable(settings["child_exit"])
    assert callable(settings["when_ready"])  # the metrics port


def test_gunicorn_reads_its_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("BACCARAT_LOG_LEVEL", "WARNING")
    settings = gunicorn_settings()
    assert (settings["bind"], settings["workers"]) == ("0.0.0.0:9123", 3)
    assert settings["loglevel"] == "warning"


@pytest.mark.parametrize(
    ("variable", "value"),
    [("PORT", "eighty"), ("PORT", "70000"), ("WEB_CONCURRENCY", "0"), ("BACCARAT_LOG_LEVEL", "loud")],
)
def test_a_bad_server_setting_fails_at_start_naming_it(variable, value):
    with pytest.raises(ValueError, match=variable):
        config.server_settings({variable: value})


# --- the documents --------------------------------------------------------


def test_the_configuration_page_documents_every_environment_variable():
    table = (ROOT / "docs" / "reference" / "configuration.md").read_text()
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", table, flags=re.MULTILINE))
    assert documented == {variable.name for variable in config.VARIABLES}


@pytest.mark.parametrize("page", ["deploy.md", "security.md", "observability.md", "sizing.md"])
def test_the_operations_pages_are_written(page):
    assert (ROOT / "docs" / "operations" / page).read_text().count("\n") > 10
