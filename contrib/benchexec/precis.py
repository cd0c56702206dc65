# BenchExec tool-info module for precis-verify, the command-line verifier of precis
# (a header-only C++20 library of CEGAR algorithms for software model checking).
#
# Install it by copying this file into BenchExec's benchexec/tools/ folder (tool name
# "precis"), or by putting it into a package on the Python path (tool name
# "<package>.precis"); see README.md next to this file.
#
# It uses only BenchExec's stable tool-info API (benchexec.tools.template.BaseTool2,
# benchexec.result), not benchexec.tools.sv_benchmarks_util, which BenchExec documents as
# unstable and not for out-of-tree modules.

"""BenchExec tool-info module for precis-verify."""

import functools
import json
import re
import subprocess

import benchexec.tools.template
from benchexec import result
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException

_EXECUTABLE = "precis-verify"

# The SV-COMP unreach-call property, whitespace removed: no call of the error function
# is reachable from main(). precis-verify treats calls of reach_error() and
# __VERIFIER_error() (and __assert_fail) as the error location.
_UNREACH_CALL_FORMULAS = {
    "CHECK(init(main()),LTL(G!call(reach_error())))",
    "CHECK(init(main()),LTL(G!call(__VERIFIER_error())))",
}

_DATA_MODELS = ("ILP32", "LP64")  # precis-verify's default is ILP32 (clang -m32)

# Share of BenchExec's memory limit given to precis-verify's own --memory-limit (on its
# resident set), so that it ends with UNKNOWN before the cgroup (which also counts the
# page cache and the kernel's memory for the process) would kill it.
_MEMORY_SHARE = 0.9

# The first line of `precis-verify --version`: "precis-verify 0.1.0 (git 1a2b3c4)".
_VERSION_LINE = re.compile(r"^\s*precis-verify\s+(\S.*?)\s*$")

# An input error (exit code 3) on stderr: "file:line:col: error: message".
_INPUT_ERROR = re.compile(r"\berror: (.*)$")


@functools.lru_cache(maxsize=None)
def _help_text(executable):
    """`precis-verify --help`, to see which options this build has ("" if it fails)."""
    try:
        process = subprocess.run(
            [executable, "--help"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return process.stdout if process.returncode == 0 else ""


def _has_option(executable, option):
    return re.search(r"(^|[\s,])" + re.escape(option) + r"(?![\w-])", _help_text(executable), re.M)


def _option_present(options, *names):
    """Whether the user's options already contain one of these options (any spelling)."""
    for option in options:
        for name in names:
            if option == name or option.startswith(name + "="):
                return True
            # CLI11 also accepts a short option glued to its value: -t900
            if not name.startswith("--") and option.startswith(name) and len(option) > 2:
                return True
    return False


def _is_unreach_call(property_file):
    """Whether the property file states SV-COMP's unreach-call property.

    The file is read (BenchExec passes a path valid in the tool's working directory);
    if it cannot be read, its name decides, as in the sv-benchmarks collection.
    """
    try:
        with open(property_file, encoding="utf-8") as f:
            lines = [re.sub(r"\s+", "", line) for line in f]
    except OSError:
        return property_file.replace("\\", "/").rsplit("/", 1)[-1] == "unreach-call.prp"
    formulas = [line for line in lines if line and not line.startswith("//")]
    return bool(formulas) and all(line in _UNREACH_CALL_FORMULAS for line in formulas)


def _status_of_unknown(reason):
    """UNKNOWN becomes TIMEOUT or OUT OF MEMORY when precis-verify stopped at its own
    limit (the same names BenchExec gives when it stops the tool itself), else unknown.

    With the portfolio (--analysis auto) the reason is "no stage decided (A: r1; B: r2;
    C: r3)": the last stage gets all the time that is left, so its reason is the run's.
    """
    reason = reason or ""
    portfolio = re.match(r"^no stage decided \((.*)\)$", reason)
    last = portfolio.group(1).split(";")[-1] if portfolio else reason
    if "time limit of" in last:
        return result.RESULT_TIMEOUT
    if "memory limit" in last:
        return "OUT OF MEMORY"
    return result.RESULT_UNKNOWN


def _status_of_input_error(message):
    """Short, table-friendly reason for exit code 3 (input error)."""
    if not message:
        return result.RESULT_ERROR + " (input error)"
    if message.startswith("unsupported: "):
        # "unsupported: array type 'int[100000]'" -> "unsupported: array type"
        # "unsupported: recursive call of 'f'" -> "unsupported: recursive call"
        what = message[len("unsupported: ") :].split("'", 1)[0].strip()
        what = re.sub(r"\s+(of|to|in|for|with)$", "", what)
        return f"{result.RESULT_ERROR} (unsupported: {what})" if what else "ERROR (unsupported)"
    if "has no error location" in message:
        return result.RESULT_ERROR + " (no error location)"
    if "need the C front end" in message:
        return result.RESULT_ERROR + " (no C front end in this build)"
    if message.startswith("cannot open") or message.startswith("not a regular file"):
        return result.RESULT_ERROR + " (cannot read input)"
    return result.RESULT_ERROR + " (input error)"


class Tool(benchexec.tools.template.BaseTool2):
    """
    precis-verify: CEGAR-based software model checking (explicit values, predicate
    abstraction, adjustable-block encoding, VINTA, ...) of C programs with a portfolio
    (--analysis auto, the default).

    Supports only the SV-COMP property unreach-call (a task with another property raises
    UnsupportedFeatureException) and tasks with a single C file (.c or .i).

    The module adds to the user's options, each only if the user did not give it:
    - -t <CPU-time limit in s> (precis-verify's limit is wall-clock time, which for this
      single-threaded tool is at least the CPU time, so it stops in time);
    - --memory-limit <90% of the memory limit in MiB>;
    - --data-model ILP32|LP64 from the task's options, if precis-verify has that option;
      without it, ILP32 (precis-verify's default) tasks run and LP64 tasks are refused;
    - --witness-dir . if precis-verify has that option (witness.graphml for a violation,
      witness.yml for a correctness witness); without it, no witness is written, because
      --witness FILE writes either format to one name chosen before the verdict is known.
    """

    def executable(self, tool_locator):
        try:
            return tool_locator.find_executable(_EXECUTABLE)
        except ToolNotFoundException as not_in_root:
            try:
                return tool_locator.find_executable(_EXECUTABLE, subdir="bin")
            except ToolNotFoundException as not_in_bin:
                raise ToolNotFoundException(f"{not_in_root}\n{not_in_bin}") from None

    def name(self):
        return "precis"

    def project_url(self):
        # precis has no public web page yet; BenchExec accepts None here.
        return None

    def version(self, executable):
        output = self._version_from_tool(executable, "--version")
        first = output.splitlines()[0] if output else ""
        match = _VERSION_LINE.match(first)
        return match.group(1) if match else first.strip()

    def cmdline(self, executable, options, task, rlimits):
        options = list(options)
        if task.property_file and not _is_unreach_call(task.property_file):
            raise UnsupportedFeatureException(
                f"precis supports only the unreach-call property, "
                f"not the one in '{task.property_file}'"
            )
        input_file = task.single_input_file

        added = []
        data_model = None
        if isinstance(task.options, dict) and task.options.get("language", "C") == "C":
            data_model = task.options.get("data_model")
        if data_model is not None and not _option_present(options, "--data-model"):
            if data_model not in _DATA_MODELS:
                raise UnsupportedFeatureException(
                    f"Unsupported data_model '{data_model}' defined for task '{task}'"
                )
            if _has_option(executable, "--data-model"):
                added += ["--data-model", data_model]
            elif data_model != "ILP32":
                raise UnsupportedFeatureException(
                    f"Task '{task}' needs data model {data_model}, but this precis-verify "
                    f"has no --data-model option and always uses ILP32"
                )

        if rlimits.cputime and not _option_present(options, "-t", "--time-limit"):
            added += ["-t", str(rlimits.cputime)]
        if rlimits.memory and not _option_present(options, "--memory-limit"):
            mib = max(1, int(rlimits.memory * _MEMORY_SHARE) // (1024 * 1024))
            added += ["--memory-limit", str(mib)]

        if (
            not _option_present(options, "--witness", "--witness-dir", "--validate")
            and _has_option(executable, "--witness-dir")
        ):
            added += ["--witness-dir", "."]

        return [executable, *options, *added, input_file]

    def determine_result(self, run):
        verdict = None  # SAFE, UNSAFE, UNKNOWN (or ERROR with --json)
        reason = None
        error_message = None
        internal = False
        output_failed = False
        for line in run.output:
            text = line.strip()
            if text in ("SAFE", "UNSAFE", "UNKNOWN"):
                verdict = verdict or text
            elif text.startswith("Reason:") and reason is None:
                reason = text[len("Reason:") :].strip()
            elif text.startswith("{") and text.endswith("}") and '"verdict"' in text:
                # --json: one object on one line, errors included
                try:
                    report = json.loads(text)
                except ValueError:
                    continue
                verdict = verdict or report.get("verdict")
                reason = reason or report.get("reason")
                if report.get("error") == "internal":
                    internal = True
                if report.get("error") == "input" and report.get("message"):
                    match = _INPUT_ERROR.search(report["message"])
                    error_message = error_message or (
                        match.group(1) if match else report["message"]
                    )
            elif text.startswith("precis-verify: internal error"):
                internal = True
            elif text.startswith("precis-verify: error: cannot write the report"):
                output_failed = True
            elif error_message is None:
                match = _INPUT_ERROR.search(text)
                if match:
                    error_message = match.group(1)

        if run.exit_code.signal:
            # BenchExec names the signal (SEGMENTATION FAULT, KILLED, ...) for ERROR.
            return result.RESULT_TIMEOUT if run.was_timeout else result.RESULT_ERROR

        code = run.exit_code.value
        if code == 0 and verdict == "SAFE":
            return result.RESULT_TRUE_PROP
        if code == 1 and verdict == "UNSAFE":
            return result.RESULT_FALSE_REACH
        if code == 2 and verdict == "UNKNOWN":
            return _status_of_unknown(reason)
        if code == 3:
            return _status_of_input_error(error_message)
        if code == 4:
            if internal:
                return result.RESULT_ERROR + " (internal error)"
            if output_failed:
                return result.RESULT_ERROR + " (cannot write output)"
            return result.RESULT_ERROR + " (usage error)"
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if verdict is None:
            return result.RESULT_ERROR + " (no verdict)"
        return f"{result.RESULT_ERROR} (verdict {verdict} with exit code {code})"

    def get_value_from_output(self, output, identifier):
        """A statistic of precis-verify's report, e.g. `refinements`, `time total (s)`,
        `ARG nodes (created)`, `portfolio rule`, or a `Key:` line such as `Reason`.

        The statistics are rows "  key<at least two spaces>value" after "Statistics:";
        the last match counts.
        """
        pattern = re.compile(r"^\s*" + re.escape(identifier) + r"(?::\s*|\s{2,})(\S.*?)\s*$")
        value = None
        for line in output:
            match = pattern.match(line)
            if match:
                value = match.group(1)
        return value
