# Run by spack/validate.sh as `spack -e ENV python spack/concretize_matrix.py`: concretizes Weft in every variant
# combination the recipe offers and checks what came out; checks that the impossible ones are refused with the
# recipe's conflict message. Exits non-zero, naming the spec, on the first surprise. Not a Spack package.
import sys

import spack.spec

# spec -> properties the concrete spec must have (checked with Spec.satisfies on the root or by dependency name)
POSSIBLE = [
    ("weft", ["+openmp", "~mpi", "~cuda", "~rocm"], {"openblas": "threads=openmp"}),
    ("weft ~openmp", ["~openmp"], {"openblas": ""}),
    ("weft +openmp", ["+openmp"], {"openblas": "threads=openmp"}),
    ("weft ~blas", ["~blas"], {"openblas": None}),
    ("weft +mpi", ["+mpi"], {"openmpi": ""}),
    ("weft +openmp +mpi +tests", ["+openmp +mpi +tests"], {"doctest": "", "openmpi": ""}),
    ("weft +tests", ["+tests"], {"doctest": ""}),
    ("weft ~apps", ["~apps"], {"python": None}),
    ("weft +perf", ["+perf"], {"benchmark": ""}),
    ("weft +emulation", ["+emulation"], {"boost": "+context"}),
    ("weft +bounds_check", ["+bounds_check"], {}),
    ("weft +cuda cuda_arch=80", ["+cuda cuda_arch=80"], {"cuda": "@12:"}),
    ("weft +cuda cuda_arch=90", ["+cuda cuda_arch=90"], {"cuda": "@12:"}),
    ("weft +cuda cuda_arch=80,90", ["+cuda cuda_arch=80,90"], {"cuda": "@12:"}),
    ("weft +cuda +mpi +nccl cuda_arch=90", ["+cuda +mpi +nccl"], {"nccl": "", "cuda": "", "openmpi": ""}),
    ("weft +rocm amdgpu_target=gfx90a", ["+rocm amdgpu_target=gfx90a"], {"hip": "", "rocprim": ""}),
    ("weft +rocm amdgpu_target=gfx908,gfx90a", ["+rocm amdgpu_target=gfx908,gfx90a"], {"hip": ""}),
]

# spec -> words the refusal must contain (the recipe's conflict message)
IMPOSSIBLE = [
    ("weft +cuda +rocm cuda_arch=80 amdgpu_target=gfx90a", "at most one device backend"),
    ("weft +nccl ~cuda +mpi", "NCCL moves device memory"),
    ("weft +nccl", "NCCL moves device memory"),
    ("weft +nccl +cuda ~mpi cuda_arch=90", "travels over MPI"),
    ("weft +cuda", "needs a GPU architecture"),
    ("weft +rocm", "needs a GPU architecture"),
    ("weft +emulation +cuda cuda_arch=90", "excludes +cuda"),
    ("weft +emulation ~openmp", "add +openmp"),
]

# Dependencies Spack may build itself without fetching anything (the compiler's runtime libraries, copied).
BUILT_LOCALLY = {"weft", "gcc-runtime"}


def fail(spec, what):
    print(f"FAILED {spec}: {what}", flush=True)
    sys.exit(1)


for text, root_props, deps in POSSIBLE:
    try:
        concrete = spack.spec.Spec(text).concretized()
    except Exception as e:  # noqa: BLE001 - any refusal of a possible spec is a failure, with Spack's words
        fail(text, f"Spack refused it: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
    for prop in root_props:
        if not concrete.satisfies(prop):
            fail(text, f"the concrete root is not {prop}: {concrete.format('{name}{@version}{variants}')}")
    names = {d.name: d for d in concrete.traverse()}
    for dep, prop in deps.items():
        if prop is None:
            if dep in names:
                fail(text, f"depends on {dep}, which it should not")
            continue
        if dep not in names:
            fail(text, f"has no {dep} in its DAG")
        if prop and not names[dep].satisfies(prop):
            fail(text, f"{dep} is not {prop}: {names[dep].format('{name}{@version}{variants}')}")
    built = sorted(n for n, d in names.items() if not d.external and n not in BUILT_LOCALLY)
    if built:
        fail(text, f"would build (and so fetch) {', '.join(built)}: every dependency must be an external")
    print(f"ok  {text:48s} -> {concrete.format('{name}{@version}{variants}')}", flush=True)
    shown = []
    for d in sorted(concrete.traverse(root=False), key=lambda d: d.name):
        threads = f" threads={d.variants['threads'].value}" if d.name == "openblas" else ""
        shown.append(f"{d.format('{name}{@version}')}{threads}{' [e]' if d.external else ''}")
    print("      deps: " + ", ".join(shown), flush=True)

for text, words in IMPOSSIBLE:
    try:
        concrete = spack.spec.Spec(text).concretized()
    except Exception as e:  # noqa: BLE001 - the refusal is what is expected; its message is checked below
        message = str(e)
        if words not in message:
            fail(text, f"refused, but without the recipe's message ({words!r}): {message.splitlines()[:3]}")
        print(f"ok  {text:48s} refused: {words!r}", flush=True)
        continue
    fail(text, f"Spack concretized it: {concrete.format('{name}{@version}{variants}')}")

print(f"concretization matrix: {len(POSSIBLE)} specs concretized, {len(IMPOSSIBLE)} refused as they should be")
