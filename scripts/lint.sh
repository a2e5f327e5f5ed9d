#!/bin/sh
# Formatting check of the C++ sources against .clang-format.
set -eu
cd "$(dirname "$0")/.."
# Generated files (cmake/gen_regmap.cmake) are checked against their source instead.
files=$(git ls-files '*.cpp' '*.hpp' | grep -v '^driver/rac_kernel_regs.hpp$')
clang-format --dry-run --Werror $files
echo "lint: $(echo "$files" | wc -w) files clean"
# Layering: lower layers never include upper ones. The runtime and the
# libraries below it must not include the CLI's headers (shared contracts
# such as exit statuses live in host/common/).
layering=$(git grep -nE '#include "cli/' -- host/common host/core host/trace host/detect host/report host/gen \
  host/symbolize host/offload host/runtime driver || true)
if [ -n "$layering" ]; then
  echo "lint: lower layers include host/cli headers:" >&2
  echo "$layering" >&2
  exit 1
fi
# The shared report code (host/symbolize/, used by the runtime and the CLI)
# and the libraries below it must not include the runtime's headers.
layering=$(git grep -nE '#include "runtime/' -- host/common host/core host/trace host/detect host/report host/gen \
  host/symbolize || true)
if [ -n "$layering" ]; then
  echo "lint: lower layers include host/runtime headers:" >&2
  echo "$layering" >&2
  exit 1
fi
echo "lint: layering clean"
