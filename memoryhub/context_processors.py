from django.http import HttpRequest

from memoryhub import llm


def product(request: HttpRequest) -> dict[str, object]:
    """Whether the assistant runs offline; every page shows it."""
    return {"llm_offline": llm.is_offline()}
