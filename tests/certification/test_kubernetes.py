"""The Kubernetes manifest of a certification cluster: a DaskCluster of the
Dask operator, on the service's image, as locked down as the service's pods.
kubernetes-validate knows no custom resource, so its shape is asserted here;
it is not in k8s/kustomization.yaml (tests/test_deploy.py validates those)."""

from __future__ import annotations

from pathlib import Path

import yaml

MANIFEST = Path(__file__).parents[2] / "k8s" / "certification" / "daskcluster.yaml"


def test_a_daskcluster_of_single_threaded_workers_on_the_service_s_image():
    cluster = yaml.safe_load(MANIFEST.read_text())
    assert cluster["apiVersion"] == "kubernetes.dask.org/v1"
    assert cluster["kind"] == "DaskCluster"
    worker = cluster["spec"]["worker"]["spec"]["containers"][0]
    scheduler = cluster["spec"]["scheduler"]["spec"]["containers"][0]
    assert worker["image"] == scheduler["image"]
    assert worker["image"].startswith("baccarat-service:")
    assert worker["args"][:4] == ["dask", "worker", "--nthreads", "1"]
    assert {port["containerPort"] for port in scheduler["ports"]} == {8786, 8787}
    for pod in (cluster["spec"]["worker"]["spec"], cluster["spec"]["scheduler"]["spec"]):
        assert pod["securityContext"]["runAsNonRoot"] is True
        container = pod["containers"][0]
        assert container["securityContext"]["readOnlyRootFilesystem"] is True
        assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
        assert "memory" in container["resources"]["limits"]
