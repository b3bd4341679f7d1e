// Exit codes with a meaning beyond failure, shared by the bridge and the service unit it runs in.
/**
 * The exit code (sysexits' EX_CONFIG) for what a person must mend before Telecode can run: its
 * config, a bot token Telegram refuses, another program taking the bot's messages. The service
 * unit does not restart Telecode after it: restarted, it would fail the same way (and against
 * another poller, take turns with it for the bot's messages). A full disk or a Telecode already
 * running on the data directory stays exit 1: those can pass, and a restart then succeeds.
 */
export const NEEDS_A_PERSON = 78;
