// The evalp command line: bin/evalp.js runs main().
