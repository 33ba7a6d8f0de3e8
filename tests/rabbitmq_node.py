"""A RabbitMQ node of a test's own: started in a temporary folder, stopped with its epmd.

Every path, port and name of the node is private to it (its data and logs in `folder`, the
Erlang cookie in `folder` as HOME, the AMQP, distribution and epmd ports picked free), so
runs side by side, or a RabbitMQ the machine already runs, are never touched. Erlang starts
an epmd of its own on the private port; `stop` ends the node and then that epmd, found by the
port in its environment.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import psutil
from kombu import Connection

INSTALL_HINT = (
    "RabbitMQ is not installed; to run this test: `apt-get install rabbitmq-server` "
    "(it is started by the test itself, in a temporary folder)"
)
# Debian's /usr/sbin/rabbitmq-server is a wrapper that switches to the `rabbitmq` user and
# its folders; the script behind it runs the node as the caller, with the environment's paths.
_DEBIAN_SERVER = Path("/usr/lib/rabbitmq/bin/rabbitmq-server")
# What docs/deploy.md asks of a production RabbitMQ: tasks are acknowledged after they run,
# so a delivery must be allowed to stay unacknowledged longer than the longest task.
CONFIG = "consumer_timeout = 7200000\n"


def server_path() -> Path | None:
    if _DEBIAN_SERVER.exists():
        return _DEBIAN_SERVER
    found = shutil.which("rabbitmq-server")
    return Path(found) if found else None


def _free_ports(count: int) -> list[int]:
    """`count` different free ports (each held until all are picked, so none repeats)."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]


@dataclass
class RabbitNode:
    process: subprocess.Popen[bytes]
    folder: Path
    amqp_port: int
    epmd_port: int

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.amqp_port}//"

    @property
    def log(self) -> Path:
        return self.folder / "server.log"

    def accepts_connections(self) -> bool:
        try:
            with Connection(self.url, connect_timeout=2) as connection:
                connection.connect()
        except Exception:
            return False
        return True

    def stop(self) -> None:
        """Stop the node (SIGTERM: a clean stop), then its epmd; kill whatever is left."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        # The node's own process group (the shell script, beam and its helpers).
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for epmd in _epmds_on(self.epmd_port):
            with contextlib.suppress(psutil.NoSuchProcess):
                epmd.terminate()
                epmd.wait(timeout=10)


def _epmds_on(port: int) -> list[psutil.Process]:
    """The epmd processes started with ERL_EPMD_PORT=`port` (only ours use that port)."""
    found = []
    for process in psutil.process_iter(["name"]):
        if process.info["name"] != "epmd":
            continue
        with contextlib.suppress(psutil.Error):
            if process.environ().get("ERL_EPMD_PORT") == str(port):
                found.append(process)
    return found


def start(folder: Path, *, timeout: float = 180.0) -> RabbitNode:
    """Start a node with its files in `folder`; return once it accepts AMQP connections.
    Raises FileNotFoundError when RabbitMQ is not installed, RuntimeError when it fails."""
    server = server_path()
    if server is None:
        raise FileNotFoundError(INSTALL_HINT)
    (folder / "rabbitmq.conf").write_text(CONFIG)
    (folder / "enabled_plugins").write_text("[].\n")  # no management listener to collide
    (folder / "rabbitmq-env.conf").write_text("")  # not the machine's /etc/rabbitmq one
    amqp_port, dist_port, epmd_port = _free_ports(3)
    env = dict(
        os.environ,
        HOME=str(folder),  # the Erlang cookie
        RABBITMQ_NODENAME=f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}@localhost",
        RABBITMQ_NODE_IP_ADDRESS="127.0.0.1",
        RABBITMQ_NODE_PORT=str(amqp_port),
        RABBITMQ_DIST_PORT=str(dist_port),
        ERL_EPMD_PORT=str(epmd_port),
        RABBITMQ_MNESIA_BASE=str(folder / "mnesia"),
        RABBITMQ_LOG_BASE=str(folder / "log"),
        RABBITMQ_CONFIG_FILE=str(folder / "rabbitmq.conf"),
        RABBITMQ_ADVANCED_CONFIG_FILE=str(folder / "advanced.config"),
        RABBITMQ_ENABLED_PLUGINS_FILE=str(folder / "enabled_plugins"),
        RABBITMQ_CONF_ENV_FILE=str(folder / "rabbitmq-env.conf"),
    )
    with (folder / "server.log").open("ab") as log:
        process = subprocess.Popen(
            [str(server)],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own group, so `stop` reaches beam and helpers
        )
    node = RabbitNode(process=process, folder=folder, amqp_port=amqp_port, epmd_port=epmd_port)
    deadline = time.monotonic() + timeout
    while not node.accepts_connections():
        if process.poll() is not None or time.monotonic() > deadline:
            node.stop()
            raise RuntimeError(f"RabbitMQ did not start; see {node.log} and {folder / 'log'}")
        time.sleep(0.5)
    return node
