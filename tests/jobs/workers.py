"""Real Celery worker processes for the job tests and the job benchmark: start, wait until ready, kill, stop."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

from hexside.run import group_alive, signal_group

ROOT = Path(__file__).resolve().parent.parent.parent
PYTHON = sys.executable


def database_url(settings_dict):
    """A DATABASE_URL naming the database a connection uses (the test database, once it is set up)."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("sqlite3"):
        name = str(settings_dict["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            raise RuntimeError("a worker process cannot see an in-memory SQLite database; give the test "
                               "database a file (DATABASES['default']['TEST']['NAME'])")
        return f"sqlite:///{Path(name).resolve()}"
    if "postgresql" in engine:
        user = quote(settings_dict.get("USER") or "", safe="")
        password = quote(settings_dict.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "localhost"
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"
    raise RuntimeError(f"no DATABASE_URL for {engine}")


def forget_redis_queue(url, queue):
    """Delete a queue of this run from Redis, with the bindings kombu keeps beside it."""
    import redis

    redis.Redis.from_url(url).delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


class Worker:
    """One `celery -A hexside worker` in its own process group (so that killing it kills its pool too)."""

    running = []  # the workers started and not yet stopped, for diagnostics

    def __init__(self, name, env, folder, concurrency=1, queue=None, include=("tests.jobs.worker_tasks",),
                 loglevel="info"):
        self.name = name
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "hexside.settings", "PYTHONUNBUFFERED": "1", **env}
        self.log_path = Path(folder) / f"worker-{name}.log"
        self.command = [PYTHON, "-m", "celery", "-A", "hexside", "worker", "-n", f"{name}@%h",
                        f"--concurrency={concurrency}", "--pool=prefork", f"--loglevel={loglevel}",
                        "--without-mingle", "--without-gossip", "--without-heartbeat"]
        if queue:
            self.command.append(f"--queues={queue}")
        if include:
            self.command.append(f"--include={','.join(include)}")
        self.process = None
        self._terminating = False

    def start(self, timeout=60):
        self._log = open(self.log_path, "ab")  # noqa: SIM115 - open as long as the process runs
        self.process = subprocess.Popen(self.command, cwd=ROOT, env=self.env, stdout=self._log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        Worker.running.append(self)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker {self.name} exited with {self.process.returncode}:\n{self.log()}")
            if " ready." in self.log():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"worker {self.name} not ready after {timeout} s:\n{self.log()}")

    def log(self, tail=6000):
        try:
            return self.log_path.read_text(errors="replace")[-tail:]
        except FileNotFoundError:
            return ""

    @property
    def alive(self):
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL the whole worker, main process and pool, as a machine that dies would."""
        if self.process is not None:
            signal_group(self.process.pid, signal.SIGKILL)
        self._reap()

    def terminate(self):
        """Ask for a cold shutdown (SIGQUIT), as `make run` stops its workers: the main process stops its pool at
        once (a warm one waits seconds for the broker's next poll); stop() then waits for it."""
        if self.alive and not self._terminating:
            self._terminating = True
            self.process.send_signal(signal.SIGQUIT)

    def stop(self, timeout=15):
        """A cold shutdown, waited on until the worker's whole process group is gone; killed if not in ``timeout``."""
        if self.process is not None:
            self.terminate()
            if not self.gone(timeout):
                signal_group(self.process.pid, signal.SIGKILL)
        self._reap()

    def gone(self, timeout):
        """Wait (polling) until no process of the worker's group is left; whether none is."""
        deadline = time.monotonic() + timeout
        while True:
            self.process.poll()  # reap the main process once it exits, so that its group can empty
            if not group_alive(self.process.pid):
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def _reap(self):
        if self in Worker.running:
            Worker.running.remove(self)
        if self.process is not None and not self.gone(10):
            raise RuntimeError(f"worker {self.name}: processes of its group are still there after SIGKILL")
        if getattr(self, "_log", None) is not None:
            self._log.close()
            self._log = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc_info):
        self.stop()
        return False
