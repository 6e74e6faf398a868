#!/usr/bin/env python3
"""Whether the 16-byte path of each kernel compiles to the same PTX as an older commit's kernel.

  compare_ptx.py OLD.ptx NEW.ptx

OLD.ptx and NEW.ptx come from `nvcc -std=c++17 -arch=sm_90 -ptx -I common NN_x/main.cu` at the two
commits. Since every chapter from 03 on computes every shape, its kernels take a last template
argument WIDE (`Lb1E` in the mangled name for true); an older kernel without it is compared with
the new WIDE = true one. Symbol names and branch-label numbers are ignored, nothing else.
Exit 1 when any kernel differs or has no counterpart.
"""
import re
import sys


def entries(path):
    text = open(path).read()
    out = {}
    for m in re.finditer(r"\.visible \.entry (\S+)\(", text):
        name = m.group(1)
        body = text[m.start():text.find("\n}\n", m.start())]
        body = body.replace(name, "NAME").replace("Lb1E", "")
        out[name] = re.sub(r"L__BB\d+_", "L__BB_", body)
    return out


def main(old_path, new_path):
    old, new = entries(old_path), entries(new_path)
    same, bad = 0, 0
    for name, body in sorted(new.items()):
        if "Lb1E" not in name:
            continue
        before = old.get(name.replace("Lb1E", ""))
        if before == body:
            same += 1
        else:
            bad += 1
            print(f"{'differs' if before else 'no old kernel'}: {name}")
    print(f"{new_path}: {same} wide kernels with the same PTX as before, {bad} not")
    return 1 if bad or not same else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
