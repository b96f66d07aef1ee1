# tools/module.mk: command-line programs, linked against the libraries.
TOOL_LIBS := $(BUILD)/lib/libfrontend.a $(wildcard $(if $(exec_SRCS),$(BUILD)/lib/libruntime.a $(BUILD)/lib/libexec.a)) $(BUILD)/lib/libisa.a
TOOL_LIBS := $(BUILD)/lib/libfrontend.a $(if $(runtime_SRCS),$(BUILD)/lib/libruntime.a) $(if $(exec_SRCS),$(BUILD)/lib/libexec.a) $(BUILD)/lib/libisa.a

$(BUILD)/bin/ptxrun: $(BUILD)/obj/tools/ptxrun.o $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) -ldl
all: $(BUILD)/bin/ptxrun

$(BUILD)/bin/ptxbench: $(BUILD)/obj/tools/ptxbench.o $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)
all: $(BUILD)/bin/ptxbench

# ptxfuzz: differential fuzzing of the arithmetic against the GPU (tests/fuzz/, docs/arithmetic.md);
# fuzzvec.c makes its variants' kernels and vectors, fuzzdoc.c is its doc command (docs/verification.md).
$(BUILD)/bin/ptxfuzz: $(BUILD)/obj/tools/ptxfuzz.o $(BUILD)/obj/tools/fuzzvec.o $(BUILD)/obj/tools/fuzzdoc.o $(TOOL_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS) -ldl
all: $(BUILD)/bin/ptxfuzz
check-fuzz check-tools: $(BUILD)/bin/ptxfuzz

# drvbench: the driver's overhead per launch (make bench), through build/lib/libcuda.so.1.
$(BUILD)/bin/drvbench: $(BUILD)/obj/tools/bench/drvbench.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $^ -ldl
all: $(BUILD)/bin/drvbench
