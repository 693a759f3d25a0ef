// npm run mutate: mutation testing of the security core (CONTRIBUTING.md, Mutation testing). Not part of npm test.
//
// The modules are tested in four groups, each with its own tests: Stryker runs every test of its run for a
// mutant in a module's top-level code (a table, a pattern), so the host check's slow properties (httpYac's
// engine sending generated files) run only for the host check, and Live Tracking's loopback sockets only for
// the realtime modules. `STRYKER_GROUP` picks the group (`npm run mutate` runs each); each keeps its
// incremental result in git, so a rerun after a change tests only the mutants whose code or tests changed.
import { fileURLToPath } from 'node:url';

const groups = {
	hostCheck: {
		mutate: [
			'src/core/restFile/requestHost.ts',
			'src/core/restFile/tokenReach.ts',
			'src/core/restFile/requestShape.ts',
			'src/core/restFile/environments.ts',
			'src/system/folderEnvironments.ts',
			'src/core/restFile/environmentAccounts.ts',
			'src/core/restFile/requestAccount.ts',
		],
		// In this order: a mutant is killed by its first failing test, so the quick ones go first.
		tests: [
			'requestShape', 'requestHost', 'hostCheckAllowances', 'tokenReach', 'tokenReachTable', 'tokenReachModel', 'environments',
			'environmentAccounts', 'requestAccount', 'folderEnvironments', 'hostCheckShapes', 'hostCheckFolders', 'hostCheckHttpyac',
		],
	},
	core: {
		mutate: [
			'src/core/util/tokenGrammar.ts',
			'src/core/util/redact.ts',
			'src/core/api/parse.ts',
			'src/core/sessions/refreshPlan.ts',
			'src/core/terminal/protocol.ts',
			'src/core/terminal/allowance.ts',
			'src/core/terminal/peer.ts',
			'src/core/agent/serviceRequest.ts',
			'src/core/agent/mcpSession.ts',
			'src/core/agent/irreversible.ts',
			'src/core/agent/changeGuard.ts',
			'src/core/platform/servicePath.ts',
			'src/core/sessions/production.ts',
			'src/core/sessions/reconcile.ts',
			'src/features/exposure/envFileSync.ts',
			'src/features/terminal/channelRoot.ts',
		],
		tests: [
			'tokenGrammar', 'redact', 'redactingLog', 'liveTracking', 'parse', 'tokenAnswer', 'serviceAnswers', 'loginBudget',
			'loginInput.l10n', 'refreshPlan', 'refreshScheduler', 'mcpProtocol', 'mcpBinding', 'terminalAllowance',
			'agentRequest', 'questionText', 'production', 'reconcile', 'envFiles', 'envFileSync', 'channelRoot', 'terminalToken', 'git',
		],
	},
	httpyac: {
		mutate: [
			'src/core/httpyac/sendCheck.ts',
			'src/core/httpyac/door.ts',
			'src/core/httpyac/liveVariables.ts',
			'src/core/httpyac/plugin.ts',
		],
		tests: ['httpyacLiveVariables', 'httpyacSendCheck', 'httpyacDoorParts', 'httpyacPluginParts', 'httpyacDoor', 'httpyacOwnVariables'],
	},
	realtime: {
		mutate: [
			'src/core/liveTracking/protocol.ts',
			'src/core/liveTracking/connection.ts',
			'src/core/liveTracking/networkWatch.ts',
			'src/core/liveTracking/fleet.ts',
			'src/core/liveTracking/pageFeed.ts',
		],
		tests: ['liveTracking', 'livePageFeed', 'liveSocket', 'liveTrackingEmulator'],
	},
};

// The tests run from a copy in .stryker-tmp/, two folders deeper: the REST corpus is named (test/unit/corpus.ts).
process.env.TELEMATICS_CORPUS ??= fileURLToPath(new URL('../shared/corpus/http', import.meta.url));

const name = process.env.STRYKER_GROUP ?? '';
const group = groups[name];
if (!group) throw new Error(`STRYKER_GROUP is "${name}": set it to one of ${Object.keys(groups).join(', ')} (npm run mutate runs each).`);

export default {
	$schema: './node_modules/@stryker-mutator/core/schema/stryker-schema.json',
	testRunner: 'mocha',
	buildCommand: 'tsc -p .',
	disableTypeChecks: 'src/**/*.ts',
	mutate: group.mutate,
	mochaOptions: {
		spec: group.tests.map((test) => `out/test/unit/${test}.test.js`),
		// A killed mutant needs one failing case, not fast-check's smallest one.
		require: ['out/test/support/mutationRun.js'],
	},
	coverageAnalysis: 'perTest',
	concurrency: 2,
	timeoutMS: 20000,
	ignorePatterns: ['.cache', 'dist', 'out', 'reports', 'media', '.stryker-tmp'],
	reporters: ['clear-text', 'progress', 'html'],
	htmlReporter: { fileName: `reports/mutation/${name}.html` },
	tempDirName: '.stryker-tmp',
	incremental: true,
	incrementalFile: `reports/stryker-incremental-${name}.json`,
	cleanTempDir: 'always',
};
