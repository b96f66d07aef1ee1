/* machine.h: the emulated GPU's facts (machine.def) as constants EX_M_<NAME>, and the
 * residency they imply. */
#ifndef PTXEMU_EX_MACHINE_H
#define PTXEMU_EX_MACHINE_H

#define MACHINE(name, value, what) EX_M_##name = (value),
enum {
#include "exec/machine.def"
};
#undef MACHINE

#endif
