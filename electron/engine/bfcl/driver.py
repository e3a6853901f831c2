# The BFCL v4 harness as an external component of LOTS Studio: one JSON object a line on stdin (a
# request {"id", "op", ...}), one a line on stdout (the answer {"id", "ok": true, "result"} or
# {"id", "ok": false, "error", "traceback"}). It only calls the official package bfcl-eval; no logic of
# the Studio lives here (the TypeScript client is electron/engine/bfcl/harness.ts).
#
# ops:
#   info                                   -> the package's version and path
#   load {category}                        -> the category's records, possible answers and the function
#                                             docs of every API class (the package's data files)
#   execute {session, entry, calls}        -> execute_multi_turn_func_call on the session's instances
#                                             (kept between requests, as the official inference does)
#   end {session}                          -> forget the session's instances
#   check {entry, ground_truth, result}    -> the official multi_turn_checker's verdict
#   to_calls {calls}                       -> decoded calls [{name: {arg: value}}] as BFCL call strings
import importlib.metadata
import json
import os
import sys
import traceback

import bfcl_eval
from bfcl_eval.constants.executable_backend_config import MULTI_TURN_FUNC_DOC_FILE_MAPPING
from bfcl_eval.eval_checker.multi_turn_eval import multi_turn_utils
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker
from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_utils import execute_multi_turn_func_call

DATA = os.path.join(os.path.dirname(bfcl_eval.__file__), "data")


def json_lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def forget(prefix):
    # The official helpers keep instances in their module's globals, keyed by model name and record id.
    for name in [n for n in vars(multi_turn_utils) if n.startswith(prefix)]:
        del vars(multi_turn_utils)[name]


def instance_prefix(session):
    # As execute_multi_turn_func_call names them (model name first, '-./:' replaced by '_').
    return "".join("_" if c in "-./:" else c for c in session) + "_"


def op_info(req):
    return {"version": importlib.metadata.version("bfcl-eval"), "path": os.path.dirname(bfcl_eval.__file__), "python": sys.version.split()[0]}


def op_load(req):
    category = req["category"]
    docs = {}
    for cls, file in MULTI_TURN_FUNC_DOC_FILE_MAPPING.items():
        path = os.path.join(DATA, "multi_turn_func_doc", file)
        if os.path.exists(path):
            docs[cls] = json_lines(path)
    return {
        "records": json_lines(os.path.join(DATA, f"BFCL_v4_{category}.json")),
        "answers": json_lines(os.path.join(DATA, "possible_answer", f"BFCL_v4_{category}.json")),
        "docs": docs,
    }


def op_execute(req):
    entry = req["entry"]
    results, _ = execute_multi_turn_func_call(
        func_call_list=req["calls"],
        initial_config=entry["initial_config"],
        involved_classes=entry["involved_classes"],
        model_name=req["session"],
        test_entry_id=entry["id"],
        long_context=False,
    )
    return {"results": results}


def op_end(req):
    forget(instance_prefix(req["session"]))
    return {}


def op_check(req):
    # A fresh model name per check: the checker keeps its instances under "<model>_eval" and
    # "<model>_ground_truth_eval" and would reuse them on a second check of the same record.
    model = f"check_{req['id']}"
    try:
        verdict = multi_turn_checker(req["result"], req["ground_truth"], req["entry"], "multi_turn", model)
    finally:
        forget(instance_prefix(model))
    return verdict


def op_to_calls(req):
    # The official bfcl_eval.model_handler.utils.convert_to_function_call, line for line: Python's repr
    # of each argument. Importing it would pull in the leaderboard's other dependencies (tree_sitter,
    # filelock, ...), which the multi-turn classes and checker do not need and the venv does not carry.
    execution_list = []
    for function_call in req["calls"]:
        for key, value in function_call.items():
            if type(value) == str:
                value = json.loads(value)
            execution_list.append(f"{key}({','.join([f'{k}={repr(v)}' for k,v in value.items()])})")
    return {"calls": execution_list}


OPS = {"to_calls": op_to_calls, "info": op_info, "load": op_load, "execute": op_execute, "end": op_end, "check": op_check}


def main():
    out = sys.stdout
    sys.stdout = sys.stderr  # anything the package prints goes to stderr, never into the protocol
    for line in sys.stdin:
        if not line.strip():
            continue
        req_id = None
        try:
            req = json.loads(line)
            req_id = req.get("id")
            answer = {"id": req_id, "ok": True, "result": OPS[req["op"]](req)}
        except Exception as e:
            answer = {"id": req_id, "ok": False, "error": f"{type(e).__name__}: {e}", "traceback": traceback.format_exc()}
        out.write(json.dumps(answer, default=repr) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
