# raceaccel: `make demo` runs the main job, `make test` runs the tests. Both
# first install missing Debian packages (scripts/install-deps.sh), so on a
# fresh Debian 12 machine these two commands are the whole setup.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")

.PHONY: all deps configure build test demo bench synth synth_card mutants xclbin lint format clean

all: build

deps:
	@sh scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -G "$(GENERATOR)" -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: deps
	$(MAKE) build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: deps
	$(MAKE) build
	sh scripts/demo.sh $(BUILD)

bench: deps
	$(MAKE) build
	sh scripts/bench.sh $(BUILD)

# Yosys resource and logic-depth estimates (UltraScale+); reports, not tests:
# the CI shapes (about 10 min; build/synth/ci.json) and the card shape (an
# hour or more; build/synth/card.json). rtl/README.md explains the columns.
synth: deps configure
	cmake --build $(BUILD) --target synth

synth_card: deps configure
	cmake --build $(BUILD) --target synth_card

# The RTL mutant campaign (docs/verification.md): every single-line mutant of
# the RTL, each built and tested on its own in build/mutants/ (hours; the
# kernel's take longest). MODULES="rac_cmd_reader rac_meta_port" narrows it,
# SAMPLE=N takes N mutants per module (fixed seed).
MODULES ?=
SAMPLE ?= 0
mutants: deps configure
	python3 tests/mutants/mutants.py run --work $(abspath $(BUILD))/mutants --sample $(SAMPLE) --min-killed 90 \
	  $(foreach m,$(MODULES),--module $(m))

# The card image with AMD Vitis: make xclbin PLATFORM=<platform> [TARGET=hw_emu]
# (docs/deployment.md). Without vivado and v++ on PATH it says what is needed
# and stops.
XCLBIN_DIR ?= $(abspath $(BUILD))/xclbin
# SHAPE="slots=64 ..." is checked by this build's raceaccel (build it first).
RACEACCEL ?= $(abspath $(BUILD))/bin/raceaccel
xclbin:
	@$(MAKE) --no-print-directory -f constraints/vitis/Makefile xclbin XCLBIN_DIR=$(XCLBIN_DIR) RACEACCEL=$(RACEACCEL)

lint:
	sh scripts/lint.sh
	sh scripts/rtl_lint.sh

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf $(BUILD)
