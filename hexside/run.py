"""`make run`'s processes: the web server and the two workers, started and stopped together.

One Ctrl-C (or a TERM) stops them all within seconds. Each child runs in a process group of its own, so the
terminal's Ctrl-C reaches only this supervisor, which asks each child to stop: a warm shutdown for gunicorn, a
cold one (SIGQUIT) for Celery, whose warm shutdown would wait for running jobs (the sweep requeues those). A
child still there after the grace period is killed with its whole group (a worker's pool processes too). If
any child exits on its own, the others are stopped as well: half a studio is not left running.

    python -m hexside.run --host 127.0.0.1 --port 8000 --workers 2 --interactive-workers 2
"""

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time

GRACE_SECONDS = 5.0


def commands(options):
    python = sys.executable
    celery = [python, "-m", "celery", "-A", "hexside", "worker", "--loglevel=warning"]
    return {
        "heavy worker": celery + ["-n", "heavy@%h", f"--queues={options.heavy_queue}",
                                  f"--concurrency={options.workers}"],
        "interactive worker": celery + ["-n", "interactive@%h", f"--queues={options.interactive_queue}",
                                        f"--concurrency={options.interactive_workers}"],
        # ASGI on gunicorn's asyncio worker (with deadlines for slow clients): a job wait or a slow client holds
        # a socket, not a thread (docs/scale.md).
        "web server": [python, "-m", "gunicorn", "hexside.asgi", "--worker-class", "hexside.webserver.Worker",
                       "--bind", f"{options.host}:{options.port}", "--workers", "2", "--timeout", "120",
                       "--log-level", "warning"],
    }


def group_alive(pgid):
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def signal_group(pgid, signum):
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signum)


class Supervisor:
    def __init__(self, commands, grace=GRACE_SECONDS):
        self.commands, self.grace = commands, grace
        self.children = {}  # name -> Popen; each child leads its own process group (pgid == pid)
        self.stopping = False

    def start(self):
        env = {**os.environ, "NUMBA_NUM_THREADS": "1"}  # one numba thread per process: the processes use the cores
        for name, command in self.commands.items():
            self.children[name] = subprocess.Popen(command, env=env, start_new_session=True)

    def ask_to_stop(self, signum=None, frame=None):
        if self.stopping:
            return
        self.stopping = True
        for name, child in self.children.items():
            signal_group(child.pid, signal.SIGQUIT if "worker" in name else signal.SIGTERM)

    def wait(self):
        """Until every child's group is gone; the exit status for the whole."""
        status = 0
        while not self.stopping:
            for name, child in self.children.items():
                if child.poll() is not None:
                    print(f"hexside: the {name} exited ({child.returncode}); stopping the others", file=sys.stderr)
                    status = child.returncode or 1
                    self.ask_to_stop()
                    break
            else:
                time.sleep(0.2)
        deadline = time.monotonic() + self.grace
        while time.monotonic() < deadline and self._left():
            time.sleep(0.1)
        for name, child in self.children.items():
            if child.poll() is None or group_alive(child.pid):
                print(f"hexside: the {name} did not stop in {self.grace:g} s; killing it", file=sys.stderr)
                signal_group(child.pid, signal.SIGKILL)
        for child in self.children.values():
            child.wait()
        deadline = time.monotonic() + self.grace  # the killed groups' last processes, until they are reaped
        while time.monotonic() < deadline and self._left():
            time.sleep(0.05)
        return status

    def _left(self):
        for child in self.children.values():
            child.poll()  # reap the leader once it has exited, so that its group can empty
        return [child for child in self.children.values() if group_alive(child.pid)]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", default="8000")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--interactive-workers", type=int, default=2)
    parser.add_argument("--heavy-queue", default=os.environ.get("HEXSIDE_JOBS_QUEUE") or "celery")
    parser.add_argument("--interactive-queue", default=os.environ.get("HEXSIDE_JOBS_INTERACTIVE_QUEUE")
                        or "interactive")
    options = parser.parse_args(argv)
    supervisor = Supervisor(commands(options))
    signal.signal(signal.SIGINT, supervisor.ask_to_stop)
    signal.signal(signal.SIGTERM, supervisor.ask_to_stop)
    supervisor.start()
    return supervisor.wait()


if __name__ == "__main__":
    sys.exit(main())
