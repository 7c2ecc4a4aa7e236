/* The student's shapes[] of tests/qtest/simt-preempt-test.c. */
static const Shape shapes[] = {
    { "pathfinder", "lp_spin", 256, 2048, 16, 6, 400 },
    { "hotspot", "lp_spin", 256, 3072, 36, 3, 400 },
    { "streamcluster", "lp_spin", 512, 0, 12, 3, 400 },
    { "backprop", "lp_mix", 256, 1088, 20, 6, 2 },
    { "btree", "lp_btree", 256, 0, 16, 6, 100, ref_btree },
    { "srad", "lp_srad", 256, 5120, 20, 6, 30, ref_srad },
    { "bigblock", "lp_spin", 1024, 0, 64, 1, 400 },
};
