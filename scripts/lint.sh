#!/bin/sh
# Formatting check of the C++ sources against .clang-format.
set -eu
cd "$(dirname "$0")/.."
# Generated files (cmake/gen_regmap.cmake) are checked against their source instead.
files=$(git ls-files '*.cpp' '*.hpp' | grep -v '^driver/rac_kernel_regs.hpp$')
clang-format --dry-run --Werror $files
echo "lint: $(echo "$files" | wc -w) files clean"
