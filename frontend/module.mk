# frontend/module.mk: libfrontend: the flex scanner, the bison parser, lowering to IR
# and validation.  Generated sources go to $(BUILD)/frontend, never into git.
FLEX_MIN  := 2.6
BISON_MIN := 3.5
frontend_GEN  := $(BUILD)/frontend/ptx_lex.c $(BUILD)/frontend/ptx_parse.c
frontend_SRCS := $(wildcard frontend/*.c)

$(BUILD)/frontend/ptx_parse.c $(BUILD)/frontend/ptx_parse.h &: frontend/ptx_parse.y | frontend/tools-ok
	@mkdir -p $(dir $@)
	$(BISON) -Wall -Werror --defines=$(BUILD)/frontend/ptx_parse.h -o $(BUILD)/frontend/ptx_parse.c $<
$(BUILD)/frontend/ptx_lex.c $(BUILD)/frontend/ptx_lex.h &: frontend/ptx_lex.l $(BUILD)/frontend/ptx_parse.h
	@mkdir -p $(dir $@)
	$(FLEX) --header-file=$(BUILD)/frontend/ptx_lex.h -o $(BUILD)/frontend/ptx_lex.c $<

# Version check of the generator tools (a phony prerequisite that fails early).
.PHONY: frontend/tools-ok
frontend/tools-ok:
	@v=$$($(FLEX) --version 2>/dev/null | sed -n 's/^[^0-9]*\([0-9][0-9.]*\).*/\1/p'); \
	 [ -n "$$v" ] || { echo "error: flex >= $(FLEX_MIN) is required (apt-get install flex)"; exit 1; }; \
	 printf '%s\n%s\n' "$(FLEX_MIN)" "$$v" | sort -V -C || { echo "error: flex $$v is older than $(FLEX_MIN)"; exit 1; }
	@v=$$($(BISON) --version 2>/dev/null | sed -n '1s/^[^0-9]*\([0-9][0-9.]*\).*/\1/p'); \
	 [ -n "$$v" ] || { echo "error: bison >= $(BISON_MIN) is required (apt-get install bison)"; exit 1; }; \
	 printf '%s\n%s\n' "$(BISON_MIN)" "$$v" | sort -V -C || { echo "error: bison $$v is older than $(BISON_MIN)"; exit 1; }

# Generated sources are compiled without -Wextra noise from the generators' own code.
GEN_WARN := -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter
$(BUILD)/obj/gen/frontend/%.o: $(BUILD)/frontend/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ifrontend $(ALL_CFLAGS) $(GEN_WARN) -c $< -o $@
$(BUILD)/tobj/gen/frontend/%.o: $(BUILD)/frontend/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Ifrontend $(ALL_CFLAGS) $(GEN_WARN) -DPTXEMU_TESTING -c $< -o $@

frontend_GENOBJS  := $(BUILD)/obj/gen/frontend/ptx_lex.o $(BUILD)/obj/gen/frontend/ptx_parse.o
frontend_GENTOBJS := $(BUILD)/tobj/gen/frontend/ptx_lex.o $(BUILD)/tobj/gen/frontend/ptx_parse.o
$(frontend_GENOBJS) $(frontend_GENTOBJS): $(BUILD)/frontend/ptx_lex.h $(BUILD)/frontend/ptx_parse.h
# Hand-written sources include the generated headers.
$(patsubst %.c,$(BUILD)/obj/%.o,$(frontend_SRCS)) $(patsubst %.c,$(BUILD)/tobj/%.o,$(frontend_SRCS)): $(BUILD)/frontend/ptx_parse.h $(BUILD)/frontend/ptx_lex.h

$(eval $(call lib_template,frontend))
$(BUILD)/lib/libfrontend.a: $(frontend_GENOBJS)
$(BUILD)/tlib/libfrontend.a: $(frontend_GENTOBJS)
