"""deploy/prometheus-rules.yml: valid for Prometheus (`promtool check rules`: syntax, PromQL, the
annotations' templates), each alert fires on the series it watches and none on a healthy service
(`promtool test rules`), and every metric the rules name is in a real scrape of the service. The
promtool is the distribution's (`apt-get install prometheus`, as .ci/run does); without it the first
two skip, saying so."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from ..conftest import ROOT

RULES = ROOT / "deploy" / "prometheus-rules.yml"
PROMTOOL = shutil.which("promtool")
needs_promtool = pytest.mark.skipif(PROMTOOL is None, reason="promtool is not installed (apt-get install -y "
                                                             "prometheus): the alerting rules are not checked")

# Each alert, the series that make it fire (promtool's expanding notation: 'a+bxN'), when to look,
# and the labels it must fire with.
FIRING = {
    "GinDown": ({'up{job="gin", instance="a"}': "1 1 0x10"}, "6m", {"job": "gin", "instance": "a"}),
    "GinNotReady": ({'gin_ready{instance="a"}': "1 0x10"}, "5m", {"instance": "a"}),
    "GinHigh5xxRate": ({'gin_http_requests_total{instance="a", route="/games", method="POST", status="201"}': "0+100x20",
                        'gin_http_requests_total{instance="a", route="/games", method="POST", status="500"}': "0+5x20"},
                       "15m", {"instance": "a"}),
    "GinDatabasePoolTimeouts": ({'gin_db_pool_timeouts_total{instance="a"}': "0 0 0 4 9 9"}, "4m", {"instance": "a"}),
    "GinDatabasePoolSaturated": ({'gin_db_pool_in_use{instance="a"}': "14x20",
                                  'gin_db_pool_capacity{instance="a"}': "15x20"}, "15m", {"instance": "a"}),
    "GinOutboxLagging": ({'gin_outbox_oldest_due_seconds{instance="a"}': "600x20"}, "10m", {}),
    "GinOutboxFailures": ({'gin_outbox_failures_total{instance="a", channel="mail"}': "0+10x60",
                           'gin_deliveries_total{instance="a", channel="mail"}': "0+1x60"}, "40m", {"channel": "mail"}),
    "GinWakeupListenerReconnecting": ({'gin_wakeup_reconnects_total{instance="a", transport="postgresql"}': "0+2x20"},
                                      "10m", {"instance": "a", "transport": "postgresql"}),
}
# A healthy node: every series there, nothing firing.
HEALTHY = {'up{job="gin", instance="a"}': "1x60", 'gin_ready{instance="a"}': "1x60",
           'gin_http_requests_total{instance="a", route="/games", method="POST", status="201"}': "0+100x60",
           'gin_http_requests_total{instance="a", route="/games", method="POST", status="500"}': "0x60",
           'gin_db_pool_timeouts_total{instance="a"}': "0x60", 'gin_db_pool_in_use{instance="a"}': "2x60",
           'gin_db_pool_capacity{instance="a"}': "15x60", 'gin_outbox_oldest_due_seconds{instance="a"}': "0x60",
           'gin_outbox_failures_total{instance="a", channel="webhook"}': "0+1x60",
           'gin_deliveries_total{instance="a", channel="webhook"}': "0+50x60",
           'gin_wakeup_reconnects_total{instance="a", transport="postgresql"}': "0x60"}


def alerts() -> dict[str, dict]:
    return {rule["alert"]: rule for group in yaml.safe_load(RULES.read_text())["groups"]
            for rule in group["rules"] if "alert" in rule}


@needs_promtool
def test_promtool_checks_the_rules():
    done = subprocess.run([PROMTOOL, "check", "rules", str(RULES)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"SUCCESS: {len(alerts())} rules found" in done.stdout


@needs_promtool
def test_each_alert_fires_on_what_it_watches_and_none_on_a_healthy_service(tmp_path):
    """promtool's unit tests, on the rules without their annotations (text, whose templates the
    check above renders): each alert alone in its scenario, then all silent on a healthy node."""
    rules = yaml.safe_load(RULES.read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            rule.pop("annotations", None)
    (tmp_path / "rules.yml").write_text(yaml.safe_dump(rules))
    assert set(FIRING) == set(alerts()), "an alert without a scenario here, or a scenario without its alert"
    tests = []
    for name, (series, when, labels) in FIRING.items():
        severity = alerts()[name]["labels"]["severity"]
        tests.append({"interval": "1m", "input_series": [{"series": s, "values": v} for s, v in series.items()],
                      "alert_rule_test": [{"eval_time": when, "alertname": name,
                                           "exp_alerts": [{"exp_labels": {**labels, "severity": severity}}]}]})
    tests.append({"interval": "1m", "input_series": [{"series": s, "values": v} for s, v in HEALTHY.items()],
                  "alert_rule_test": [{"eval_time": "50m", "alertname": name, "exp_alerts": []} for name in FIRING]})
    (tmp_path / "tests.yml").write_text(yaml.safe_dump({"rule_files": ["rules.yml"], "evaluation_interval": "1m",
                                                        "tests": tests}))
    done = subprocess.run([PROMTOOL, "test", "rules", "tests.yml"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_metric_the_rules_name_is_in_the_services_first_scrape(app):
    """Read from the scrape of a fresh app (nothing counted yet): a renamed metric would leave its
    alert silent forever."""
    from service import create_app
    fresh = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
                        **{k: v for k, v in app.config.items() if k == "SQLALCHEMY_ENGINE_OPTIONS"}})
    answer = fresh.test_client().get("/metrics")
    assert answer.status_code == 200
    scraped = {sample.name for family in text_string_to_metric_families(answer.get_data(as_text=True))
               for sample in family.samples}
    named = {name for rule in alerts().values() for name in re.findall(r"\bgin_\w+", rule["expr"])}
    assert len(named) >= 9 and named <= scraped, named - scraped
