// Registers every command module. One import per command file, in `lots --help` order.
import './route';
import './ui';
import './scores';
import './fit';
import './export';
