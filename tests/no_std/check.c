/* Links the no_std static library into a C program and runs it (see README.md). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

size_t ssekit_no_std_check(void);

/* The precompiled `alloc` refers to the unwinding personality routine in its
 * unwind tables. With panic = "abort" nothing ever unwinds, so it is never
 * called; this stub only satisfies the linker. */
void rust_eh_personality(void) { abort(); }

int main(void) {
    size_t got = ssekit_no_std_check();
    printf("ssekit_no_std_check() = %zu (expected 2011)\n", got);
    return got == 2011 ? 0 : 1;
}
