"""The load of issue 7's acceptance, for locust: each user signs in, owns a map, asks one whole-map analysis, then
mixes one-hex edits, LOS questions and viewsheds. Run by bench/bench_load.py (which starts the server and the
workers), or by hand: locust -f bench/locustfile.py --host http://127.0.0.1:8130 (users in BENCH_USERS_FILE).

Besides each HTTP request, every job is reported as a request of type JOB, its time from creation (the POST) to
succeeded (seen through the API's long poll): "los job" is the LOS figure of the acceptance.
"""

import itertools
import json
import os
import random
import time

from locust import HttpUser, between, events, task

USERS = json.loads(open(os.environ["BENCH_USERS_FILE"]).read())
_next_user = itertools.count()
JOB_WAIT_SECONDS = 120


class Designer(HttpUser):
    wait_time = between(0.2, 1.0)

    def on_start(self):
        me = USERS[next(_next_user) % len(USERS)]
        self.map, self.columns, self.rows = me["map"], me["columns"], me["rows"]
        with self.client.post("/api/token/", json={"username": me["username"], "password": me["password"]},
                              name="/api/token/", catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"sign-in: {response.status_code} {response.text[:200]}")
                return
            self.client.headers["Authorization"] = f"Token {response.json()['token']}"
        self.revision = self.client.get(f"/api/maps/{self.map}/", name="/api/maps/[id]/").json()["revision"]
        self.rng = random.Random(me["username"])
        self.job("analysis", {"height": 0})

    def hex(self):
        return [self.rng.randrange(self.columns), self.rng.randrange(self.rows)]

    def job(self, kind, data):
        """POST a job, follow it to its end; report create-to-succeeded as a JOB request named '<kind> job'."""
        started = time.perf_counter()
        with self.client.post(f"/api/maps/{self.map}/{kind}/", json=data, name=f"/api/maps/[id]/{kind}/",
                              catch_response=True) as response:
            if response.status_code not in (200, 202):
                response.failure(f"{response.status_code} {response.text[:200]}")
                return
            body = response.json()
        url = body.get("url")
        deadline = time.monotonic() + JOB_WAIT_SECONDS
        while body.get("status") not in ("succeeded", "failed", "cancelled") and time.monotonic() < deadline:
            body = self.client.get(f"{url}?wait=10", name="/api/jobs/[id]/?wait").json()
        error = None if body.get("status") == "succeeded" else Exception(
            f"{kind} job {url}: {body.get('status')} {body.get('error', '')}"[:300])
        events.request.fire(request_type="JOB", name=f"{kind} job", response_time=1000 * (time.perf_counter()
                                                                                             - started),
                            response_length=0, exception=error, context={})

    @task(4)
    def edit(self):
        terrain = self.rng.choice(["woods", "open", "brush"])
        with self.client.post(f"/api/maps/{self.map}/edits/", name="/api/maps/[id]/edits/", catch_response=True,
                              json={"revision": self.revision, "operations": [
                                  {"op": "set_terrain", "hexes": [self.hex()], "terrain": [terrain]}]}) as response:
            if response.status_code == 200:
                self.revision = response.json()["revision"]
            else:
                response.failure(f"{response.status_code} {response.text[:200]}")

    @task(4)
    def los(self):
        self.job("los", {"from": self.hex(), "to": self.hex()})

    @task(1)
    def viewshed(self):
        self.job("viewshed", {"from": self.hex()})
