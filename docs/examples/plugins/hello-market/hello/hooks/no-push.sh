#!/bin/sh
# The call arrives as JSON on stdin; exit 2 blocks it, and stderr says why.
case "$(cat)" in
  *"git push"*) echo "hello plugin: no pushes from the agent" >&2; exit 2 ;;
esac
