# warpgen timing constraint (SDC): the clock port `clock` of a warpgen block at 100 MHz.
create_clock -name clock -period 10.000 [get_ports clock]
