"""The filesystem broker under a reader and a writer at once: every message a worker takes is whole.

kombu's own transport makes the file under its final name before writing it, so a reader polling the folder
could take it empty; a worker then failed to decode the message and lost it (seen in the suite as a map image never
drawn). hexside.broker writes under another name and renames."""

import threading

from kombu import Connection

from hexside.broker import TRANSPORT, filesystem_options

PAYLOAD = "x" * 2_000_000  # big enough that writing one takes a while


def test_a_reader_polling_while_big_messages_are_written_gets_each_one_whole(tmp_path):
    options = filesystem_options(tmp_path / "broker", polling_interval=0)
    received, failures, done = [], [], threading.Event()

    def read():
        with Connection("filesystem://", transport=TRANSPORT, transport_options=options) as connection:
            queue = connection.SimpleQueue("race")
            while not (done.is_set() and len(received) + len(failures) >= 20):
                try:
                    message = queue.get(timeout=0.01)
                except queue.Empty:
                    continue
                except ValueError as exc:  # a message read before it was written
                    failures.append(exc)
                    continue
                received.append(message.payload)
                message.ack()

    reader = threading.Thread(target=read)
    reader.start()
    with Connection("filesystem://", transport=TRANSPORT, transport_options=options) as connection:
        queue = connection.SimpleQueue("race")
        for i in range(20):
            queue.put({"n": i, "body": PAYLOAD})
    done.set()
    reader.join(timeout=60)
    assert not reader.is_alive()
    assert failures == []
    assert sorted(m["n"] for m in received) == list(range(20))
    assert all(m["body"] == PAYLOAD for m in received)
    assert not list((tmp_path / "broker" / "in").iterdir())  # nothing half-written left behind
