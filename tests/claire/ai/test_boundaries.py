"""Package boundaries: only claire/ai imports provider SDKs (and within it only the litellm
provider module imports litellm), and importing the runtime stays cheap."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PROVIDER_PACKAGES = {"litellm", "openai", "anthropic"}
SKIPPED_DIRECTORIES = {".venv", ".data", "node_modules", ".git", ".mypy_cache", ".ruff_cache"}
LITELLM_MODULE = ROOT / "claire" / "ai" / "providers" / "litellm_provider.py"


def imported_top_level_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in {"import_module", "__import__"}
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value.split(".")[0])
    return names


def python_files() -> list[Path]:
    return [
        path
        for path in ROOT.rglob("*.py")
        if not SKIPPED_DIRECTORIES.intersection(path.relative_to(ROOT).parts)
    ]


def test_the_scan_sees_the_litellm_import():
    assert "litellm" in imported_top_level_packages(LITELLM_MODULE)


def test_no_module_outside_claire_ai_imports_a_provider_sdk():
    ai_package = ROOT / "claire" / "ai"
    offenders = sorted(
        f"{path.relative_to(ROOT)}: {sorted(found)}"
        for path in python_files()
        if ai_package not in path.parents
        and (found := imported_top_level_packages(path) & PROVIDER_PACKAGES)
    )
    assert offenders == []


def test_within_claire_ai_only_the_litellm_provider_imports_provider_sdks():
    offenders = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "claire" / "ai").rglob("*.py")
        if path != LITELLM_MODULE and imported_top_level_packages(path) & PROVIDER_PACKAGES
    )
    assert offenders == []


def test_importing_the_runtime_loads_neither_torch_nor_litellm():
    script = (
        "import sys, django; django.setup();"
        "import claire.ai.generate, claire.ai.embeddings, claire.ai.profiles, claire.ai.types,"
        " claire.ai.capabilities, claire.ai.registry, claire.ai.tokens;"
        "print(sorted(m for m in ('torch', 'litellm', 'sentence_transformers', 'openai')"
        " if m in sys.modules))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"DJANGO_SETTINGS_MODULE": "claire.settings.dev", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert completed.stdout.strip() == "[]"
