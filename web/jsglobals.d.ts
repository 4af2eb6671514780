// The globals the pages' scripts (web/static) give each other: each
// script is a plain script (no modules, no build step) that sets one
// Journal* object on window, which the scripts loaded after it read.
// tsc (TestStaticScriptsTypeCheck, tsconfig.json) checks each script
// against these; a script's own types are its JSDoc.
declare var JournalDOM: any;
declare var JournalI18n: any;
declare var JournalDice: any;
declare var JournalDiceV2: any;
declare var JournalSigned: any;
declare var JournalBeacon: any;
declare var JournalNoble: any;
declare var JournalReceipts: any;
declare var JournalVerify: any;
declare var JournalVerifier: any;
declare var JournalKeys: any;
declare var JournalFeed: any;
declare var JournalTable: any;
declare var JournalNames: any;
declare var JournalGM: any;
