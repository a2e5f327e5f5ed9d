#!/bin/sh
# Formatting check of the C++ sources against .clang-format.
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cpp' '*.hpp')
clang-format --dry-run --Werror $files
echo "lint: $(echo "$files" | wc -w) files clean"
