"""Write the app's OpenAPI document to openapi/openapi.json (or the path given).

Run after changing any route or schema: ``python scripts/export_openapi.py``.
tests/api/test_openapi.py fails while the committed file differs from what the app serves.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.main import create_app
from app.settings import Settings

DEFAULT_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"


def render() -> str:
    return json.dumps(create_app(Settings()).openapi(), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
