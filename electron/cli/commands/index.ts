// Registers every command module. One import per command file, in `lots --help` order.
