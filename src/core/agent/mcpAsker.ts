// Who asks through telematics-mcp, in the words of its questions: the executable as the kernel knows it
// first (what the person can trust), then the command line labelled as the program's own claim (a program
// can set it to anything). The session question and every change question say it the same way. Pure: no
// `vscode`; sentences through the `t` given.
import { untranslated, type Translate } from '../util/translate';

/** Who the person was asked about, for the questions that follow in the same session. */
export interface SessionAsker {
	terminalName?: string;
	commandLine?: string;
	/** The executable as the kernel knows it (`/proc/<pid>/exe`). */
	executable?: string;
}

/**
 * The lines naming the program: its executable as the system knows it (or that the system does not say;
 * `pidKnown` false: not even which process), then its command line as its own claim, when it has one.
 */
export function programLines(who: SessionAsker | undefined, pidKnown: boolean, t: Translate = untranslated): string[] {
	return [
		who?.executable !== undefined
			? t('The program, as the system knows it: {0}', who.executable)
			: pidKnown ? t('The system does not say which program asks.') : t('The system does not say which process asks: it could be any program running as you.'),
		...(who?.commandLine ? [t('Its command line, as the program itself says (a program can set it to anything): {0}', who.commandLine)] : []),
	];
}
