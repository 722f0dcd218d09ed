#!/usr/bin/env python3
"""Run CUDA ptxas over PTX instruction texts and write golden validity records.

Records follow tests/data/golden/ptxas/README.md: each instruction sits on line 15 of the README's
kernel wrapper. For speed the texts are assembled in batches: one module holds up to BATCH kernels
(each the wrapper's body with one instruction); errors name a line, which names the kernel. The
kernels no error named are assembled again together; if that module is accepted they are all
accepted, otherwise (an error without a line, a crash) each is assembled alone, exactly as the
README describes. Usage:
  run_ptxas.py CASES.jsonl OUT.jsonl.gz --config sm_100a@9.0 [--config ...] [--ptxas PATH] [-j 2]
CASES.jsonl: one {"instr", "opcode", "qualifiers"} object a line.
"""
import argparse, gzip, json, os, re, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

HEAD = ".version {v}\n.target {t}\n.address_size 64\n"
BODY = """.visible .entry k{i}(.param .u64 p0, .param .align 64 .b8 tmap[128])
{{
  .reg .pred %p<4>;
  .reg .b16 %h<8>;
  .reg .b32 %r<300>;
  .reg .b64 %rd<8>;
  .shared .align 128 .b8 smem[4096];
  .shared .align 8 .b64 mbar;
  .reg .b32 %tmp<2>;
  ld.param.u64 %rd0, [p0];
  mov.u32 %r0, 0;
  {instr}
  ret;
}}
"""
LINE = re.compile(r"line (\d+); (error|warning|fatal)\s*: (.*)")
FATAL = re.compile(r"ptxas fatal\s*: (.*)")


def assemble(ptxas, target, version, instrs):
    """Returns (rc, [(line or None, kind, msg)]) for a module of len(instrs) kernels."""
    text = HEAD.format(v=version, t=target) + "".join(BODY.format(i=i, instr=s) for i, s in enumerate(instrs))
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(text)
        name = f.name
    try:
        p = subprocess.run([ptxas, "-arch=" + target, name, "-o", "/dev/null"], capture_output=True, text=True,
                           timeout=120)
        out, rc = p.stdout + p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, rc = "ptxas fatal   : timed out", 124
    finally:
        os.unlink(name)
    msgs = []
    for ln in out.splitlines():
        m = LINE.search(ln)
        if m:
            msgs.append((int(m.group(1)), m.group(2), m.group(3).strip()))
            continue
        m = FATAL.search(ln)
        if m and "Ptx assembly aborted due to errors" not in m.group(1):
            msgs.append((None, "fatal", m.group(1).strip()))
    return rc, msgs


def kernelOf(line, sizes):
    """Kernel index and offset of a module line (the header is 3 lines, each kernel len(BODY) lines)."""
    ln = line - 4  # 0-based line within the kernels
    k = 0
    for n in sizes:
        if ln < n:
            return k, ln
        ln -= n
        k += 1
    return None, None


def record(case, target, version, rc, msgs, offset):
    errs = [m for m in msgs if m[1] in ("error", "fatal")]
    errors = []
    for m in errs:
        if m[2] not in errors:
            errors.append(m[2])
    warns = []
    for m in msgs:
        if m[1] == "warning" and m[2] not in warns:
            warns.append(m[2])
    crashed = rc < 0
    accepted = rc == 0 and not errs
    first = errs[0] if errs else None
    return dict(instr=case["instr"], opcode=case.get("opcode", ""), qualifiers=case.get("qualifiers", {}),
                target=target, ptx_version=version, accepted=accepted,
                error=first[2] if first else None,
                error_line=(first[0] - offset) if first and first[0] is not None else None,
                errors=errors, warnings=warns, ptxas_crashed=crashed)


def bodyLines(instr):
    return BODY.format(i=0, instr=instr).count("\n")


def runAlone(ptxas, target, version, case):
    rc, msgs = assemble(ptxas, target, version, [case["instr"]])
    return record(case, target, version, rc, msgs, 15)


def runBatch(ptxas, target, version, cases):
    if len(cases) == 1:
        return [runAlone(ptxas, target, version, cases[0])]
    sizes = [bodyLines(c["instr"]) for c in cases]
    rc, msgs = assemble(ptxas, target, version, [c["instr"] for c in cases])
    if rc < 0 or any(m[0] is None for m in msgs if m[1] != "warning"):
        return [runAlone(ptxas, target, version, c) for c in cases]
    per = [[] for _ in cases]
    for line, kind, msg in msgs:
        k, off = kernelOf(line, sizes)
        if k is None:
            return [runAlone(ptxas, target, version, c) for c in cases]
        per[k].append((off + 1, kind, msg))
    bad = {k for k, ms in enumerate(per) if any(m[1] != "warning" for m in ms)}
    out = [None] * len(cases)
    for k in bad:
        # the kernel-relative line: the instruction is on line 12 of a kernel body (15 in the wrapper)
        out[k] = record(cases[k], target, version, 1, [(l + 3, kd, m) for l, kd, m in per[k]], 15)
        # ptxas 13.0 sometimes reports an error of its own expansion of one kernel's mma.sp on a declaration
        # line of another module's kernel ("Illegal modifier '.sync' for instruction 'and'" at line 6) that
        # the instruction alone does not get: an error off the instruction's line is decided alone.
        if out[k]["error_line"] not in (0, None):
            out[k] = runAlone(ptxas, target, version, cases[k])
    rest = [k for k in range(len(cases)) if k not in bad]
    if rest:
        rc2, msgs2 = assemble(ptxas, target, version, [cases[k]["instr"] for k in rest])
        if rc2 == 0 and not any(m[1] != "warning" for m in msgs2):
            for k in rest:
                out[k] = record(cases[k], target, version, 0, [(l + 3, kd, m) for l, kd, m in per[k]], 15)
        else:
            for k in rest:
                out[k] = runAlone(ptxas, target, version, cases[k])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cases")
    ap.add_argument("out")
    ap.add_argument("--config", action="append", required=True)
    ap.add_argument("--ptxas", default="/usr/local/cuda/bin/ptxas")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--interleave", action="store_true",
                    help="write each text's records for all configurations together (the same verdicts; a "
                         "smaller .gz, since gzip's 32 KiB window then sees the repeated text)")
    ap.add_argument("--drop-crashed", action="store_true",
                    help="leave out every record of a text on which ptxas crashed for some configuration (a crash "
                         "is no verdict, and it may not repeat)")
    a = ap.parse_args()
    cases = [json.loads(l) for l in open(a.cases) if l.strip()]
    jobs = []
    for cfg in a.config:
        t, v = cfg.split("@")
        for i in range(0, len(cases), a.batch):
            jobs.append((t, v, cases[i:i + a.batch]))
    with ThreadPoolExecutor(a.j) as ex:
        results = list(ex.map(lambda j: runBatch(a.ptxas, *j), jobs))
    records = [r for rs in results for r in rs]
    if a.drop_crashed:
        crashed = {r["instr"] for r in records if r["ptxas_crashed"]}
        records = [r for r in records if r["instr"] not in crashed]
    if a.interleave:
        index = {c["instr"]: i for i, c in enumerate(cases)}
        order = {cfg: i for i, cfg in enumerate(a.config)}
        records.sort(key=lambda r: (index[r["instr"]], order[r["target"] + "@" + r["ptx_version"]]))
    with open(a.out, "wb") as raw:
        with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as g:
            for r in records:
                g.write((json.dumps(r) + "\n").encode())
    n = len(records)
    acc = sum(x["accepted"] for x in records)
    print(f"{n} records, {acc} accepted", file=sys.stderr)


if __name__ == "__main__":
    main()
