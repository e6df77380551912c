/**
 * Import first in a test file that checks colours: chalk (through Ink) decides its colour level when it is
 * first loaded, and test workers are not TTYs, so without this every frame would be colourless anyway.
 */
process.env['FORCE_COLOR'] = '1';
