"""docs/ and the code agree: every registered pass, pass option, op and device attribute is
documented, nothing documented is missing from the code, and no comment cites a document
outside the repository. Each failure says what to add or remove, and where."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from dfsched import dialects, passes
from dfsched.arch import intrinsics
from dfsched.tools.pass_help import options, pipeline_order

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
OWN_DIALECTS = ["ktdp", "spyreop", "ktdf", "ktdf_arch", "ktdf_lowering", "dataflow", "agen", "vectorchain",
                "uniform", "symbol", "linalg", "memref", "affine", "scf"]


def _sections(text: str, pattern: str) -> dict[str, str]:
    """Heading name -> the text up to the next heading of that level."""
    found = list(re.finditer(pattern, text, re.M))
    return {m[1]: text[m.end(): found[i + 1].start() if i + 1 < len(found) else len(text)]
            for i, m in enumerate(found)}


def _problems(what: str, documented: set[str], existing: set[str], add: str, remove: str) -> list[str]:
    out = [f"{what} '{n}' is undocumented: {add.format(n=n)}" for n in sorted(existing - documented)]
    out += [f"{what} '{n}' is documented but does not exist: {remove.format(n=n)}" for n in sorted(documented - existing)]
    return out


# ---------------------------------------------------------------------------------------
# passes and their options
# ---------------------------------------------------------------------------------------


def test_every_pass_and_option_is_documented():
    text = (DOCS / "passes.md").read_text()
    sections = _sections(text, r"^## `([^`]+)`\s*$")
    problems = _problems(
        "pass", set(sections), set(passes.PASSES),
        "add a section '## `{n}`' to docs/passes.md (what, **Rules.**, **Options.**, **Diagnostics.**, "
        "**Upstream.**), in pipeline order (see pipeline.py)",
        "remove its '## `{n}`' section from docs/passes.md (or register the pass in passes/__init__.py)")
    for name in sorted(set(sections) & set(passes.PASSES)):
        body = sections[name]
        block = re.search(r"^\*\*Options\.\*\*(.*?)(?=^\*\*|\Z)", body, re.M | re.S)
        if block is None:
            problems.append(f"pass '{name}': its section in docs/passes.md has no '**Options.**' line "
                            "(write '**Options.** None.' or one '- `option` (type): meaning' line per option)")
            continue
        documented = set(re.findall(r"^- `([^`]+)`", block[1], re.M))
        existing = {o.name for o in options(name)}
        problems += _problems(
            f"option of pass '{name}'", documented, existing,
            "add '- `{n}` (type, default): meaning' under **Options.** in the '## `" + name + "`' section of "
            "docs/passes.md",
            "remove '- `{n}`' from the **Options.** of '## `" + name + "`' in docs/passes.md")
    assert not problems, "\n".join(problems)


def test_pass_sections_follow_the_pipeline():
    """The same order as `dfsched-opt --help`: `-ktir-to-dfir`'s, then the others alphabetically."""
    documented = re.findall(r"^## `([^`]+)`\s*$", (DOCS / "passes.md").read_text(), re.M)
    expected = [name for name in pipeline_order() if name in documented]
    documented = [name for name in documented if name in expected]
    for index, (have, want) in enumerate(zip(documented, expected)):
        assert have == want, (f"docs/passes.md: section '## `{want}`' should come "
                              + (f"right after '## `{expected[index - 1]}`'" if index else "first")
                              + f" (pipeline.py order, then the other passes alphabetically), not '## `{have}`'")


# ---------------------------------------------------------------------------------------
# ops
# ---------------------------------------------------------------------------------------


def _own_ops() -> dict[str, tuple[str, str]]:
    """op name -> (dialect, module) for every op class dfsched defines."""
    out = {}
    for dialect in OWN_DIALECTS:
        module, attr = dialects.DIALECTS[dialect]
        for op in getattr(importlib.import_module(module), attr).operations:
            if op.__module__.startswith("dfsched."):
                out[op.name] = (dialect, op.__module__)
    return out


def test_every_op_is_documented():
    text = (DOCS / "dialects.md").read_text()
    problems = []
    documented: dict[str, str] = {}
    for dialect, body in _sections(text, r"^## (\w+)\s*$").items():
        for op in _sections(body, r"^### `([^`]+)`\s*$"):
            documented[op] = dialect
    ops = _own_ops()
    problems += _problems(
        "op", set(documented), set(ops),
        "add a '### `{n}`' heading to docs/dialects.md (meaning, operands and attributes, an example)",
        "remove its '### `{n}`' section from docs/dialects.md")
    for op in sorted(set(documented) & set(ops)):
        if documented[op] != ops[op][0]:
            problems.append(f"op '{op}' is documented under '## {documented[op]}' in docs/dialects.md; "
                            f"move it under '## {ops[op][0]}'")
    assert not problems, "\n".join(problems)


# ---------------------------------------------------------------------------------------
# device attributes
# ---------------------------------------------------------------------------------------


def _device_attributes() -> set[str]:
    from dfsched.dialects.ktdf_arch import KTDF_ARCH

    names: set[str] = set()
    for op in KTDF_ARCH.operations:
        definition = op.get_irdl_definition()
        names |= set(definition.properties) | set(definition.attributes)
    names |= set(intrinsics._PROPERTY_CHECKS) | set(intrinsics._FEATURE_CHECKS)
    for feature, fields in intrinsics.FEATURE_FIELDS.items():
        names |= set(fields)
    names |= set(intrinsics.ACCESS_FIELDS) | set(intrinsics.OTHER_DEVICE_ATTRIBUTES) | set(intrinsics.CORE_LINK_FIELDS)
    return names


def test_every_device_attribute_is_documented():
    text = (DOCS / "devices.md").read_text()
    reference = _sections(text, r"^## (.+?)\s*$")["Attribute reference"]
    documented = set(re.findall(r"^\| `([^`]+)` \|", reference, re.M))
    problems = _problems(
        "device attribute", documented, _device_attributes(),
        "add a row '| `{n}` | on | meaning | read by |' to the table under '## Attribute reference' in "
        "docs/devices.md",
        "remove its row from '## Attribute reference' in docs/devices.md (or register it in arch/intrinsics.py: "
        "FEATURE_FIELDS, ACCESS_FIELDS, CORE_LINK_FIELDS or OTHER_DEVICE_ATTRIBUTES)")
    missing_features = set(intrinsics._FEATURE_CHECKS) - set(intrinsics.FEATURE_FIELDS)
    problems += [f"feature '{f}' has no FEATURE_FIELDS entry in arch/intrinsics.py" for f in sorted(missing_features)]
    assert not problems, "\n".join(problems)


def test_worked_devices_exist():
    text = (DOCS / "devices.md").read_text()
    for path in re.findall(r"\(`(arch/devices/[\w.]+)`\)", text):
        assert (ROOT / path).exists(), f"docs/devices.md works through {path}, which does not exist"


# ---------------------------------------------------------------------------------------
# links and citations
# ---------------------------------------------------------------------------------------


def _anchor(heading: str) -> str:
    """GitHub's anchor of a markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_anchor(h) for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)}


def _links() -> list[tuple[Path, str, str]]:
    out = []
    for path in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target, anchor in re.findall(r"\]\(((?:docs/)?[\w-]+\.md)?(?:#([\w-]+))?\)", path.read_text()):
            if target or anchor:
                out.append((path, target, anchor))
    return out


def test_links_into_docs_resolve():
    problems = []
    for source, target, anchor in _links():
        file = source if not target else (source.parent / target if source.parent == DOCS else ROOT / target)
        if not file.exists():
            problems.append(f"{source.relative_to(ROOT)} links to {target}, which does not exist")
        elif anchor and anchor not in _anchors(file):
            problems.append(f"{source.relative_to(ROOT)} links to {target}#{anchor}: no such heading")
    assert not problems, "\n".join(problems)


CITATION = re.compile(r"docs/(\w+\.md)(?:#([\w-]+))?")
OUTSIDE = re.compile(r"(passes-scheduling|passes-lowering|ktir-dialects|schedule-dialects|xdsl-notes)\.md"
                     r"|\barch\.md|/work/shared|§")


def _code_files() -> list[Path]:
    skip = {".venv", "Output", "docs", ".git"}
    this = Path(__file__).resolve()
    return [p for p in ROOT.rglob("*") if p.suffix in (".py", ".mlir", ".test", ".toml")
            and not skip & set(p.relative_to(ROOT).parts) and p.is_file() and p.resolve() != this]


def test_no_comment_cites_a_document_outside_the_repository():
    problems = []
    for path in _code_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                problems.append(f"{path.relative_to(ROOT)}:{number}: cites a document outside the repository; "
                                f"cite docs/<page>.md#<section> instead: {line.strip()}")
    assert not problems, "\n".join(problems[:40]) + (f"\n... {len(problems) - 40} more" if len(problems) > 40 else "")


def test_citations_into_docs_resolve():
    problems = []
    for path in _code_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for page, anchor in CITATION.findall(line):
                target = DOCS / page
                if not target.exists():
                    problems.append(f"{path.relative_to(ROOT)}:{number}: cites docs/{page}, which does not exist")
                elif anchor and anchor not in _anchors(target):
                    problems.append(f"{path.relative_to(ROOT)}:{number}: cites docs/{page}#{anchor}: no such heading")
    assert not problems, "\n".join(problems)


def test_an_undocumented_pass_is_reported_with_what_to_add(monkeypatch):
    import pytest

    monkeypatch.setitem(passes.PASSES, "made-up-pass", ("dfsched.passes.cleanup.canonicalize", "CanonicalizePass"))
    with pytest.raises(AssertionError) as failure:
        test_every_pass_and_option_is_documented()
    assert "pass 'made-up-pass' is undocumented: add a section '## `made-up-pass`' to docs/passes.md" in str(
        failure.value)
