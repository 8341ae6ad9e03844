#!/usr/bin/env python3
"""What native/binding.gyp builds for one OS, for the scripts that build without node-gyp.

Usage: gyp-target.py BINDING_GYP OS CONFIG FIELD
  OS      'linux' | 'mac' | 'win' (gyp's OS names)
  CONFIG  'Release' | 'Debug': adds that configuration's defines
  FIELD   'sources' | 'defines' | 'libraries'
Prints one entry a line: the target's own, then those of every condition that holds for OS
(the 'else' branch when it does not). gyp files are Python literals, so no gyp is needed.
"""
import ast
import sys


def main() -> None:
    gyp_path, os_name, config, field = sys.argv[1:5]
    with open(gyp_path) as f:
        target = ast.literal_eval(f.read())["targets"][0]
    out = list(target.get(field, []))
    if field == "defines":
        out += target.get("configurations", {}).get(config, {}).get("defines", [])
    for cond in target.get("conditions", []):
        test, then = cond[0], cond[1]
        other = cond[2] if len(cond) > 2 else {}
        chosen = then if eval(test, {"__builtins__": {}}, {"OS": os_name}) else other
        out += chosen.get(field, [])
    for entry in out:
        print(entry)


if __name__ == "__main__":
    main()
