//! Building cache entries: a model (Verilated C++ compiled with the shim into a shared
//! library), the Verilator runtime objects shared by models, and the replay benchmark.
//!
//! Every entry is filled in a temporary directory inside the cache root and renamed into
//! place (see [`cache::publish`]). Make runs inside the entry's `obj/` directory; entries
//! refer to each other by relative paths (`../../rt-…`), so the cache root can move.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cache::{self, KeyHasher};
use crate::ports::{self, DirectEval};
use crate::tool;
use crate::{BuildSpec, SimError};

/// Name of the shared library inside a model's `obj/` directory.
pub(crate) const LIB_NAME: &str = "libwgsim.so";
/// Name of the replay benchmark executable inside a bench entry's `obj/` directory.
pub(crate) const BENCH_NAME: &str = "wgbench";
/// Subdirectory of an entry where Verilator's output and the objects go (make's cwd).
pub(crate) const OBJ_DIR: &str = "obj";
/// Subdirectory of a model entry holding the Verilog sources.
const SRC_DIR: &str = "src";
/// File of a model entry naming the runtime entry it links with.
const RUNTIME_MANIFEST: &str = "runtime.txt";
/// The generated port header, at the top of model and bench entries.
const PORTS_HEADER: &str = "wg_ports.h";
/// Build log kept in each model entry.
const BUILD_LOG: &str = "build.log";

/// Bump when the build changes in a way the fingerprint below does not capture.
const GENERATOR_VERSION: &str = "warpgen-sim generator 1";

/// The C++ sources, written at the top of every entry (make finds them through `VPATH ..`).
const TEMPLATES: &[(&str, &str)] = &[
    ("wg_printf.h", include_str!("../cpp/wg_printf.h")),
    ("wg_hooks.h", include_str!("../cpp/wg_hooks.h")),
    ("wg_hooks.cpp", include_str!("../cpp/wg_hooks.cpp")),
    ("wg_shim.cpp", include_str!("../cpp/wg_shim.cpp")),
    ("wg_bench.cpp", include_str!("../cpp/wg_bench.cpp")),
];

/// Verilator options of every simulation build. Lint warnings are not fatal here (lint is
/// checked by [`verilator_lint`](crate::verilator_lint)); X values are zero, so runs are
/// deterministic; assertions are on.
///
/// `-fno-reorder`: Verilator's statement reordering within a block spent 166 s of the 213 s
/// that verilating the 64-entry task combiner took (`--stats`, stage `056_reorder`), to emit
/// the same C++ byte for byte; on the five default configs it only moves a few statements of
/// thread_merge. Without it that model verilates in 50 s.
const VERILATOR_FLAGS: &[&str] = &[
    "-Wno-fatal",
    "--x-assign",
    "0",
    "--x-initial",
    "0",
    "--assert",
    "-fno-reorder",
];

/// C++ flags: position-independent code with hidden symbols (only the shim's `extern "C"`
/// functions are exported), TLS descriptors (cheaper thread-local access from a loaded
/// library), Verilator's `$finish`/`$stop`/fatal hooks and output macro redirected to
/// `cpp/wg_hooks.cpp`.
const CFLAGS: &[&str] = &[
    "-fPIC",
    "-fvisibility=hidden",
    "-mtls-dialect=gnu2",
    "-DVL_USER_FINISH",
    "-DVL_USER_STOP",
    "-DVL_USER_FATAL",
    "-DVL_PRINTF=warpgen_vl_printf",
    "-include ../wg_printf.h",
];

/// Link flags of the model: a shared library with no unresolved symbols.
const LDFLAGS: &[&str] = &["-shared", "-Wl,--no-undefined"];

/// Make variables of every compilation (Verilator's defaults are `-Os`): `-O1` for the code
/// that runs every cycle and the runtime, `-O0` for the code that runs once (construction,
/// initial blocks). Against `-O2`, the default task combiner built in 15.6 s instead of 30.4 s
/// and the scoreboard in 9.5 s instead of 15.3 s (`warpgen sim BLOCK --stimulus examples/…`
/// with an empty `WARPGEN_SIM_CACHE`); 64 entries × 64 lanes in 124 s instead of 277 s at
/// `-O1`, simulating its 200,000 lockstep cycles in 94 s instead of 85 s (`cargo test
/// --release --test task_combiner -- lockstep_width64`, cold then warm cache).
const MAKE_OPT: &[&str] = &["OPT_FAST=-O1", "OPT_SLOW=-O0", "OPT_GLOBAL=-O1"];

/// A model whose Verilated C++ is at most this many bytes is compiled as two translation units
/// ([`UNIT_NAMES`], [`write_units`]), not one per file. Verilator splits its output into files
/// of about 20,000 statements, and each file parses the runtime's headers again: the
/// scoreboard at 64 groups (9.6 MB of C++ in 42 files) compiled in 57 s of processor time file
/// by file and in 26 s as one unit; the 64-entry task combiner (21 MB with
/// `--output-split-cfuncs 500`) in 86 s file by file, 44.6 s + 4.3 s as the two units (g++ on
/// the two includers, `/usr/bin/time`; 0.8 GB of memory for the larger; 71 s + 4 s without
/// the split). Above this size the file-by-file build keeps each compiler's memory small (a
/// user's 64 entries × 64 lanes).
const UNITS_MAX_BYTES: u64 = 32_000_000;

/// The two units of a model of at most [`UNITS_MAX_BYTES`], with the make variable each
/// replaces and the lists of Verilator's `V<top>_classes.mk` it includes: the code that runs
/// every cycle at `OPT_FAST`, the code that runs once (construction, initial blocks, `__Syms`)
/// at `OPT_SLOW`, as Verilator's file-by-file build compiles them. Verilator's one-unit build
/// (`VM_PARALLEL_BUILDS=0`, its `__ALL.cpp`) compiles both at `OPT_FAST`: the default task
/// combiner's C++ took 19.6 s of processor time as one unit, 9.3 s + 1.7 s as these two (7.4 s and
/// 1.7 s with its functions split, see `warpgen_testbench::build_block`). Both at `-O0` was
/// tried (processor time from an empty cache, one unit): the default task combiner compiled
/// in 4 s instead of 22 s, and the task combiner's eight `lockstep_*` tests took 164 s instead
/// of 193 s; but the scoreboard's tests took 245 s against 238 s (small models, long
/// simulations), and the 64-entry task combiner's lockstep 339 s against 279 s.
const UNIT_NAMES: [(&str, &str, &[&str]); 2] = [
    ("wg_fast", "VM_FAST", &["VM_CLASSES_FAST", "VM_SUPPORT_FAST"]),
    ("wg_slow", "VM_SLOW", &["VM_CLASSES_SLOW", "VM_SUPPORT_SLOW"]),
];

/// Feeds everything that determines how a design is built, besides the design itself.
fn fingerprint(h: &mut KeyHasher) {
    h.field(GENERATOR_VERSION);
    for (name, text) in TEMPLATES {
        h.field(name).field(text);
    }
    for list in [VERILATOR_FLAGS, CFLAGS, LDFLAGS, MAKE_OPT] {
        h.field(list.join("\n"));
    }
    for (unit, var, lists) in UNIT_NAMES {
        h.field(unit).field(var).field(lists.join("\n"));
    }
    h.field(UNITS_MAX_BYTES.to_le_bytes());
}

/// The cache entry name of a model.
pub(crate) fn model_entry(verilator_version: &str, spec: &BuildSpec) -> String {
    let mut h = KeyHasher::new("model");
    fingerprint(&mut h);
    h.field(verilator_version)
        .field(&spec.top)
        .field([u8::from(spec.trace)]);
    h.field(spec.extra_args.len().to_le_bytes());
    for arg in &spec.extra_args {
        h.field(arg);
    }
    h.field(spec.sources.len().to_le_bytes());
    for (name, text) in &spec.sources {
        h.field(name).field(text);
    }
    h.finish("m")
}

/// Fills `tmp` with a complete model entry: sources, Verilated C++, port header, runtime
/// manifest and the shared library `obj/libwgsim.so`.
pub(crate) fn fill_model(
    verilator: &Path,
    verilator_version: &str,
    spec: &BuildSpec,
    root: &Path,
    tmp: &Path,
) -> Result<(), SimError> {
    let mut log = String::new();
    write_templates(tmp)?;
    write_sources(tmp, spec)?;
    let mut verilate = verilate_command(verilator, spec);
    verilate.current_dir(tmp);
    run_logged(&mut verilate, "verilator (verilating the design)", &mut log)?;

    let obj = tmp.join(OBJ_DIR);
    write_ports_header(tmp, &obj, spec)?;
    let makefile = format!("V{}.mk", spec.top);
    let runtime = Runtime::ensure(root, verilator_version, &obj, &makefile, &mut log)?;
    cache::write(&tmp.join(RUNTIME_MANIFEST), runtime.manifest())?;
    let units = cpp_bytes(&obj)? <= UNITS_MAX_BYTES;
    if units {
        write_units(&obj, &spec.top)?;
    }
    Make::new(&obj, &makefile)
        .units(&spec.top, units)
        .args(runtime.link_vars("wg_shim"))
        .run("make (compiling the model)", &mut log)?;
    cache::write(&tmp.join(BUILD_LOG), log)
}

/// Fills `tmp` with the replay benchmark of the model in `model_dir` (a sibling entry):
/// its own `wg_bench.o` linked with the model's objects and runtime. Make runs in the
/// benchmark's `obj/` and finds the model's files through `VPATH`, so it never writes into
/// the model's entry.
pub(crate) fn fill_bench(model_dir: &Path, top: &str, tmp: &Path) -> Result<(), SimError> {
    write_templates(tmp)?;
    fs::copy(model_dir.join(PORTS_HEADER), tmp.join(PORTS_HEADER)).map_err(|e| {
        SimError::io(
            format!("copying {PORTS_HEADER} from {}", model_dir.display()),
            e,
        )
    })?;
    let runtime = Runtime::parse(&cache::read(&model_dir.join(RUNTIME_MANIFEST))?)?;
    let model_obj = format!("../../{}/{OBJ_DIR}", entry_name(model_dir)?);
    let obj = tmp.join(OBJ_DIR);
    fs::create_dir_all(&obj).map_err(|e| SimError::io(format!("creating {}", obj.display()), e))?;
    let makefile = format!(
        "# Generated by warpgen-sim: the replay benchmark, linked from the model's objects.\n\
         include V{top}.mk\n\
         VPATH += {model_obj}\n\
         CPPFLAGS += -I{model_obj}\n\
         {BENCH_NAME}: wg_bench.o V{top}__ALL.a\n\
         \t$(LINK) $(filter-out -shared,$(LDFLAGS) $^ $(LOADLIBES) $(LDLIBS) $(LIBS)) -o $@\n"
    );
    cache::write(&obj.join("bench.mk"), makefile)?;
    let mut log = String::new();
    Make::new(&obj, "bench.mk")
        // The model's objects as its own make built them: two units or one per file.
        .units(top, model_dir.join(OBJ_DIR).join(unit_name(top, UNIT_NAMES[0].0) + ".cpp").exists())
        .args([format!("-I{model_obj}")])
        .args(runtime.link_vars(""))
        .args([BENCH_NAME.to_string()])
        .run("make (building the replay benchmark)", &mut log)?;
    cache::write(&tmp.join(BUILD_LOG), log)
}

/// The cache entry name of the replay benchmark of the model entry `model_dir`.
pub(crate) fn bench_entry(model_dir: &Path) -> Result<String, SimError> {
    let mut h = KeyHasher::new("bench");
    fingerprint(&mut h);
    h.field(entry_name(model_dir)?);
    Ok(h.finish("b"))
}

fn entry_name(dir: &Path) -> Result<&str, SimError> {
    dir.file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| SimError::InvalidSpec(format!("bad cache entry path {}", dir.display())))
}

fn write_templates(dir: &Path) -> Result<(), SimError> {
    TEMPLATES
        .iter()
        .try_for_each(|(name, text)| cache::write(&dir.join(name), text))
}

/// The bytes of C++ that Verilator wrote into `obj` (every `.cpp`).
fn cpp_bytes(obj: &Path) -> Result<u64, SimError> {
    let mut total = 0;
    let entries = fs::read_dir(obj).map_err(|e| SimError::io(format!("listing {}", obj.display()), e))?;
    for entry in entries {
        let entry = entry.map_err(|e| SimError::io(format!("listing {}", obj.display()), e))?;
        if entry.path().extension().is_some_and(|x| x == "cpp") {
            total += entry.metadata().map_err(|e| SimError::io(format!("reading {}", entry.path().display()), e))?.len();
        }
    }
    Ok(total)
}

/// The name of `unit` of model `top` (its file adds `.cpp`, its object `.o`).
fn unit_name(top: &str, unit: &str) -> String {
    format!("V{top}__{unit}")
}

/// Writes the two units of [`UNIT_NAMES`] into `obj`: each includes the files of its lists in
/// Verilator's `V<top>_classes.mk`.
fn write_units(obj: &Path, top: &str) -> Result<(), SimError> {
    let mut vars = BTreeMap::new();
    parse_make_assignments(&cache::read(&obj.join(format!("V{top}_classes.mk")))?, &mut vars);
    for (unit, _, lists) in UNIT_NAMES {
        let mut text = format!("// Generated by warpgen-sim: one translation unit of {}.\n", lists.join(", "));
        for name in lists.iter().flat_map(|list| vars.get(*list).into_iter().flatten()) {
            text.push_str(&format!("#include \"{name}.cpp\"\n"));
        }
        cache::write(&obj.join(unit_name(top, unit) + ".cpp"), text)?;
    }
    Ok(())
}

fn write_sources(tmp: &Path, spec: &BuildSpec) -> Result<(), SimError> {
    let src = tmp.join(SRC_DIR);
    fs::create_dir_all(&src).map_err(|e| SimError::io(format!("creating {}", src.display()), e))?;
    spec.sources
        .iter()
        .try_for_each(|(name, text)| cache::write(&src.join(name), text))
}

fn verilate_command(verilator: &Path, spec: &BuildSpec) -> Command {
    let mut cmd = Command::new(verilator);
    cmd.args(["--cc", "--exe", "wg_shim.cpp", "wg_hooks.cpp"])
        .args(["--top-module", &spec.top, "-Mdir", OBJ_DIR, "-o", LIB_NAME])
        .args(VERILATOR_FLAGS);
    if spec.trace {
        cmd.arg("--trace");
    }
    for flag in CFLAGS {
        cmd.args(["-CFLAGS", flag]);
    }
    for flag in LDFLAGS {
        cmd.args(["-LDFLAGS", flag]);
    }
    cmd.args(&spec.extra_args);
    cmd.args(
        spec.sources
            .iter()
            .map(|(name, _)| format!("{SRC_DIR}/{name}")),
    );
    cmd
}

/// Reads the ports and the shape of `eval_step` from Verilator's output in `obj` and writes
/// `wg_ports.h` at the top of the entry.
fn write_ports_header(tmp: &Path, obj: &Path, spec: &BuildSpec) -> Result<(), SimError> {
    let header = cache::read(&obj.join(format!("V{}.h", spec.top)))?;
    let ports = ports::parse_header(&header)?;
    if let Some(p) = ports.iter().find(|p| {
        !p.name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    }) {
        // Port names become C++ member names in the shim.
        return Err(SimError::Unsupported(format!(
            "port name `{}` is not a plain identifier",
            p.name
        )));
    }
    let model_cpp = cache::read(&obj.join(format!("V{}.cpp", spec.top)))?;
    let direct = DirectEval::detect(&spec.top, &model_cpp, &header);
    cache::write(
        &tmp.join(PORTS_HEADER),
        ports::ports_header(&spec.top, spec.trace, direct.as_ref(), &ports),
    )
}

/// One make run in an entry's `obj/` directory, with the optimisation settings of every
/// compilation ([`MAKE_OPT`]).
struct Make<'a> {
    dir: &'a Path,
    makefile: &'a str,
    args: Vec<String>,
}

impl<'a> Make<'a> {
    fn new(dir: &'a Path, makefile: &'a str) -> Self {
        Make {
            dir,
            makefile,
            args: MAKE_OPT.iter().map(|v| v.to_string()).collect(),
        }
    }

    /// Adds options, variable assignments or targets (none: the default target).
    fn args(mut self, args: impl IntoIterator<Item = String>) -> Self {
        self.args.extend(args);
        self
    }

    /// Compiles the model as the two units of [`write_units`] when `yes`: make's lists of
    /// fast and slow objects become the two.
    fn units(self, top: &str, yes: bool) -> Self {
        let vars = UNIT_NAMES.iter().map(|(unit, var, _)| format!("{var}={}", unit_name(top, unit)));
        self.args(vars.filter(|_| yes))
    }

    /// Runs make, appending its output to `log`.
    fn run(self, what: &str, log: &mut String) -> Result<(), SimError> {
        let mut cmd = Command::new(tool::find("make", "WARPGEN_MAKE")?);
        cmd.current_dir(self.dir)
            .args(["-f", self.makefile, &format!("-j{}", tool::jobs())])
            // Not a sub-make of whatever make may have started cargo.
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .env_remove("MAKELEVEL")
            .args(&self.args);
        run_logged(&mut cmd, what, log)
    }
}

/// Runs `cmd` (see [`tool::run`]) and appends its command line and output to `log`.
fn run_logged(cmd: &mut Command, what: &str, log: &mut String) -> Result<(), SimError> {
    let out = tool::run(cmd, what)?;
    log.push_str(&format!("$ {}\n{}\n", tool::command_line(cmd), out.text));
    Ok(())
}

/// The Verilator runtime (`verilated.o`, …) and `wg_hooks.o`, compiled once per set of
/// compiler settings and linked into every model (and benchmark) that uses those settings.
/// It is by far the slowest part of a build, so sharing it makes a new design cheap.
struct Runtime {
    /// The entry name, `rt-…`.
    entry: String,
    /// Object file names in the entry.
    objects: Vec<String>,
}

impl Runtime {
    /// Makes sure the runtime entry for the settings of the Verilated makefiles in `obj`
    /// exists, compiling it there if not.
    fn ensure(
        root: &Path,
        verilator_version: &str,
        obj: &Path,
        makefile: &str,
        log: &mut String,
    ) -> Result<Runtime, SimError> {
        let vars = MakeVars::read(obj, makefile)?;
        let mut objects: Vec<String> = vars
            .list("VM_GLOBAL_FAST")
            .chain(vars.list("VM_GLOBAL_SLOW"))
            .collect();
        objects.push("wg_hooks".to_string());
        let objects: Vec<String> = objects.into_iter().map(|o| format!("{o}.o")).collect();
        let mut h = KeyHasher::new("runtime");
        fingerprint(&mut h);
        h.field(verilator_version)
            .field(vars.runtime_settings())
            .field(objects.join(" "));
        let runtime = Runtime {
            entry: h.finish("rt"),
            objects,
        };
        cache::publish(root, &runtime.entry, |rt_tmp| {
            Make::new(obj, makefile)
                .args(runtime.objects.iter().cloned())
                .run("make (compiling the Verilator runtime)", log)?;
            for o in &runtime.objects {
                fs::rename(obj.join(o), rt_tmp.join(o)).map_err(|e| {
                    SimError::io(format!("moving {o} into the runtime cache entry"), e)
                })?;
            }
            Ok(())
        })?;
        Ok(runtime)
    }

    /// Make variables that link the runtime instead of compiling it: `user_classes` are the
    /// objects compiled from the model's own `--exe` files.
    fn link_vars(&self, user_classes: &str) -> Vec<String> {
        let objects: Vec<String> = self
            .objects
            .iter()
            .map(|o| format!("../../{}/{o}", self.entry))
            .collect();
        vec![
            "VK_GLOBAL_OBJS=".to_string(),
            format!("VM_USER_CLASSES={user_classes}"),
            format!("USER_LDLIBS={}", objects.join(" ")),
        ]
    }

    fn manifest(&self) -> String {
        format!("{}\n{}\n", self.entry, self.objects.join("\n"))
    }

    fn parse(manifest: &str) -> Result<Runtime, SimError> {
        let mut lines = manifest
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string);
        let entry = lines.next().ok_or_else(|| {
            SimError::InvalidSpec(format!(
                "empty {RUNTIME_MANIFEST} in the model's cache entry"
            ))
        })?;
        Ok(Runtime {
            entry,
            objects: lines.collect(),
        })
    }
}

/// Variable assignments of a Verilated makefile and the `_classes.mk` it includes.
struct MakeVars(BTreeMap<String, Vec<String>>);

impl MakeVars {
    fn read(obj: &Path, makefile: &str) -> Result<MakeVars, SimError> {
        let classes = makefile.replace(".mk", "_classes.mk");
        let mut vars = BTreeMap::new();
        for file in [makefile, classes.as_str()] {
            parse_make_assignments(&cache::read(&obj.join(file))?, &mut vars);
        }
        Ok(MakeVars(vars))
    }

    fn list<'a>(&'a self, name: &str) -> impl Iterator<Item = String> + 'a {
        self.0.get(name).into_iter().flatten().cloned()
    }

    /// Every setting that can change how the runtime compiles: all variables except the
    /// ones naming the design's own classes.
    fn runtime_settings(&self) -> String {
        const DESIGN_SPECIFIC: &[&str] = &["VM_PREFIX", "VM_MODPREFIX", "VM_PARALLEL_BUILDS"];
        self.0
            .iter()
            .filter(|(name, _)| {
                !DESIGN_SPECIFIC.contains(&name.as_str())
                    && !name.starts_with("VM_CLASSES_")
                    && !name.starts_with("VM_SUPPORT_")
                    && !name.starts_with("VM_HIER_")
            })
            .map(|(name, values)| format!("{name}={}\n", values.join(" ")))
            .collect()
    }
}

/// Collects `NAME = …`, `NAME ?= …` and `NAME += …` (with `\` continuations) from `text`.
fn parse_make_assignments(text: &str, vars: &mut BTreeMap<String, Vec<String>>) {
    let mut logical = Vec::new();
    let mut current = String::new();
    for line in text.lines() {
        if line.starts_with('\t') && current.is_empty() {
            continue; // a recipe
        }
        let line = line.split('#').next().unwrap_or("");
        match line.strip_suffix('\\') {
            Some(part) => {
                current.push_str(part);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                logical.push(std::mem::take(&mut current));
            }
        }
    }
    for line in logical {
        let Some(eq) = line.find('=') else { continue };
        let (lhs, rhs) = (&line[..eq], &line[eq + 1..]);
        let (name, append) = match lhs.strip_suffix('+') {
            Some(name) => (name.trim(), true),
            None => (lhs.trim_end_matches(['?', ':']).trim(), false),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue; // a rule or something else
        }
        let values = rhs.split_whitespace().map(str::to_string);
        let entry = vars.entry(name.to_string()).or_default();
        if !append {
            entry.clear();
        }
        entry.extend(values);
    }
}

/// Path of the shared library in a model entry.
pub(crate) fn lib_path(model_dir: &Path) -> PathBuf {
    model_dir.join(OBJ_DIR).join(LIB_NAME)
}

/// Path of the benchmark executable in a bench entry.
pub(crate) fn bench_path(bench_dir: &Path) -> PathBuf {
    bench_dir.join(OBJ_DIR).join(BENCH_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn make_assignments_with_continuations() {
        let text =
            "# c\nVM_SC = 0\nVM_GLOBAL_FAST += \\\n\tverilated \\\n\tverilated_threads \\\n\n\
                    VM_USER_CFLAGS = \\\n\t-fPIC \\\n\t-include ../wg_printf.h \\\n\n\
                    shim.o: shim.cpp\n\t$(CXX) -c -o $@ $<\nX ?= 1\n";
        let mut vars = BTreeMap::new();
        parse_make_assignments(text, &mut vars);
        assert_eq!(vars["VM_SC"], ["0"]);
        assert_eq!(vars["VM_GLOBAL_FAST"], ["verilated", "verilated_threads"]);
        assert_eq!(
            vars["VM_USER_CFLAGS"],
            ["-fPIC", "-include", "../wg_printf.h"]
        );
        assert_eq!(vars["X"], ["1"]);
        assert!(!vars.contains_key("shim.o"));
    }

    #[test]
    fn the_two_units_include_the_fast_and_the_slow_lists() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let classes = "VM_CLASSES_FAST += \\\n\tVt \\\n\tVt__A \\\n\nVM_CLASSES_SLOW += \\\n\tVt__Slow \\\n\n\
                       VM_SUPPORT_FAST += \\\n\nVM_SUPPORT_SLOW += \\\n\tVt__Syms \\\n\nVM_GLOBAL_FAST += \\\n\tverilated \\\n";
        fs::write(dir.join("Vt_classes.mk"), classes).unwrap();
        write_units(dir, "t").unwrap();
        let read = |unit| fs::read_to_string(dir.join(unit_name("t", unit) + ".cpp")).unwrap();
        let includes = |text: String| text.lines().filter(|l| l.starts_with("#include")).map(String::from).collect::<Vec<_>>();
        assert_eq!(includes(read("wg_fast")), ["#include \"Vt.cpp\"", "#include \"Vt__A.cpp\""]);
        assert_eq!(includes(read("wg_slow")), ["#include \"Vt__Slow.cpp\"", "#include \"Vt__Syms.cpp\""]);
        let m = Make::new(dir, "x.mk").units("t", true);
        assert!(m.args.contains(&"VM_FAST=Vt__wg_fast".to_string()) && m.args.contains(&"VM_SLOW=Vt__wg_slow".to_string()));
        assert!(!Make::new(dir, "x.mk").units("t", false).args.iter().any(|a| a.starts_with("VM_")));
    }
}
