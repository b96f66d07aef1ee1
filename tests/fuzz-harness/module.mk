# tests/fuzz-harness/module.mk: libFuzzer harnesses (frontend: PTX text; args: ptxrun's
# argument strings) and their regression inputs.
#   make check-fuzz-harness   replay every input under tests/fuzz-harness/regress/<harness>/
#                             through the harness (no libFuzzer; part of make check)
#   make fuzz [FUZZ_SECONDS=60]  build with clang -fsanitize=fuzzer,address,undefined into
#                             build-fuzz/ and fuzz each harness that long; any crash,
#                             timeout or leak fails.  Skipped where clang lacks libFuzzer.
FUZZ_HARNESSES := frontend args
FUZZ_SRC_frontend := tests/fuzz-harness/fe_fuzz.c
FUZZ_SRC_args     := tests/fuzz-harness/args_fuzz.c
FUZZ_LIBS := $(BUILD)/lib/libfrontend.a $(BUILD)/lib/libruntime.a $(BUILD)/lib/libexec.a $(BUILD)/lib/libisa.a
FUZZ_BUILD   ?= build-fuzz
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

define fuzz_template
$(BUILD)/tests/replay_$(1): $(BUILD)/obj/tests/fuzz-harness/replay.o $(patsubst %.c,$(BUILD)/obj/%.o,$(FUZZ_SRC_$(1))) $(FUZZ_LIBS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) -o $$@ $$^ $$(LDLIBS) -ldl
$(BUILD)/fuzz/fuzz_$(1): $(patsubst %.c,$(BUILD)/obj/%.o,$(FUZZ_SRC_$(1))) $(FUZZ_LIBS)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(ALL_CFLAGS) -fsanitize=fuzzer -o $$@ $$^ $$(LDLIBS) -ldl
.PHONY: check-fuzz-harness-$(1)
check-fuzz-harness-$(1): $(BUILD)/tests/replay_$(1)
	$(BUILD)/tests/replay_$(1) $$(wildcard tests/fuzz-harness/regress/$(1)/*)
check-fuzz-harness: check-fuzz-harness-$(1)
fuzz-bins: $(BUILD)/fuzz/fuzz_$(1)
endef
$(foreach h,$(FUZZ_HARNESSES),$(eval $(call fuzz_template,$(h))))
.PHONY: check-fuzz-harness fuzz fuzz-bins
check: check-fuzz-harness

fuzz:
	@if ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' | \
	      $(FUZZ_CC) -fsanitize=fuzzer,address,undefined -x c - -o /dev/null 2>/dev/null; then \
	   echo "fuzz: skipped (no clang with libFuzzer)"; exit 0; fi; \
	 $(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) SANITIZE= \
	   CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN)" fuzz-bins && \
	 sh tests/fuzz-harness/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_HARNESSES)
