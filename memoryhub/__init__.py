import warnings

# platformdirs (under the embedded PostgreSQL and broker) warns on every start of a process
# run as root without a session: it falls back to /tmp, which is what we want.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")

from memoryhub.celery import app as celery_app  # noqa: E402

__all__ = ("celery_app",)
