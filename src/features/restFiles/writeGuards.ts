// The guards a token (or its reference) passes before it is written into a REST file, in one order, for
// Insert Authorization Header, Update Tokens in File and New Request: each account's token is current (a
// refresh offered) and of the token grammar; every host the file sends it to is the account's service, or
// the person said to go on; a file git may take in is asked about; someone else's Authorization is replaced
// only when the person says so; and the edit lands only on the text the questions were about.
import vscode = require('../../system/vscodeApi');
import { ENVIRONMENT_REFERENCES, type EnvironmentSource, type ForeignAuthorization } from '../../core/restFile/authHeaderEdit';
import type { EnvironmentReadings } from '../../core/restFile/environments';
import type { Destination } from '../../core/restFile/requestHost';
import type { ParsedFile } from '../../core/restFile/requestParser';
import type { TextEdit } from '../../core/restFile/textEdit';
import type { Session } from '../../core/sessions/types';
import { isSafeToken } from '../../core/util/tokenGrammar';
import type { Services } from '../../services';
import { Command } from '../../commands';
import { httpyacInstalled } from '../httpyac/index';
import { ensureFreshToken, unsafeStoredTokenMessage, type FreshSession } from '../shared/freshToken';
import { guardTrackedFile } from '../shared/gitStatus';
import { notify } from '../messages/notify';
import { applyTextEdits } from './restDocuments';
import { confirmTokenHosts } from './tokenDestinations';

/** One account whose token goes into the file, and where the file sends it (told once its token is current). */
export interface TokenWrite {
	session: Session;
	reach: (current: Session) => Reach;
}

/** Where a token written into `file` goes (`file`: the text as it will be, which the host question quotes). */
export interface Reach {
	file: ParsedFile;
	destinations: readonly Destination[];
}

export interface WriteTarget {
	uri: vscode.Uri;
	/** The environments read for the host check (named in its question). */
	environments?: EnvironmentReadings;
	/** The host question's button: "Insert Anyway", "Update Anyway". */
	action: string;
}

export interface GuardSteps {
	/** Each account's token must be current and of the token grammar (a token goes into the file). */
	fresh: boolean;
	/** Ask about git; `offerReference`: offer to write a reference instead of the token. */
	git?: { offerReference: boolean };
	/** Requests holding someone else's Authorization: the person says whether to replace it. */
	foreign?: readonly ForeignAuthorization[];
}

export interface Passed {
	/** The accounts with their current tokens, in the order given (with `fresh`). */
	fresh: FreshSession[];
	/** The person chose a reference instead of the token (git). */
	reference: boolean;
	replaceForeign: boolean;
}

/** Asks the guards' questions in their one order; undefined when one stops the write (the person was told why). */
export async function passGuards(services: Services, target: WriteTarget, writes: readonly TokenWrite[], steps: GuardSteps): Promise<Passed | undefined> {
	const fresh: FreshSession[] = [];
	for (const write of writes) {
		let session = write.session;
		if (steps.fresh) {
			const current = await ensureFreshToken(services, session);
			if (!current) return undefined;
			if (!isSafeToken(current.tokens.accessToken)) {
				void notify('error', unsafeStoredTokenMessage(current.account.label));
				return undefined;
			}
			fresh.push(current);
			session = current;
		}
		const { file, destinations } = write.reach(session);
		if (!(await confirmTokenHosts(services, file, destinations, session.account, target.action, target.environments))) return undefined;
	}
	let reference = false;
	if (steps.git) {
		const answer = await guardTrackedFile(services.context, target.uri, services.prompts.current, steps.git.offerReference);
		if (answer === 'cancel') return undefined;
		reference = answer === 'reference';
	}
	const foreign = steps.foreign ?? [];
	const replaceForeign = foreign.length > 0 && await services.prompts.current.askReplaceForeign(foreign.map((f) => f.scheme));
	return { fresh, reference, replaceForeign };
}

/**
 * Applies `edits` as one undo step, only to the text the questions were about: an edit made while a question
 * was open would leave the answers about other text, and then nothing is written and `changed` is said.
 * True when written (or nothing to write).
 */
export async function applyUnchanged(editor: vscode.TextEditor, version: number, edits: readonly TextEdit[], changed: string): Promise<boolean> {
	if (edits.length === 0) return true;
	if (editor.document.version === version && await applyTextEdits(editor, edits)) return true;
	void notify('error', changed);
	return false;
}

/** The environment styles: the reference reads what telematicsAuth.exposeToken keeps; when it does not keep it there, say so. */
export function warnUnexposed(services: Services, source: EnvironmentSource): void {
	const expose = services.config.exposeToken();
	if (expose !== 'off' && (source === 'processEnv' || expose === 'environmentAndFiles')) return;
	// httpYac reads `{{TELEMATICS_TOKEN…}}` from our plugin at Send (features/httpyac/).
	if (source === 'envVariable' && httpyacInstalled()) return;
	const choose = vscode.l10n.t('Choose…');
	void notify('warning', vscode.l10n.t('The header will read the token from {0}, but telematicsAuth.exposeToken does not keep it there yet.', ENVIRONMENT_REFERENCES[source]), choose).then((c) => {
		if (c === choose) void vscode.commands.executeCommand(Command.chooseTokenExposure);
	});
}
