// What package.json promises about trust: the settings that decide where a token goes or whether it is
// written can only come from the user, and Restricted Mode's limits are declared and described.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
	capabilities: { untrustedWorkspaces: { supported: string; description: string; restrictedConfigurations: string[] } };
	contributes: { configuration: { properties: Record<string, { scope?: string }> } };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('package.json and workspace trust', () => {
	const properties = manifest.contributes.configuration.properties;

	it('settings that decide where a token goes, or whether a file gets one, are user settings only', () => {
		for (const [key, scope] of [['baseUrl', 'application'], ['extraCertificates', 'machine'], ['insertStyle', 'application'], ['exposeToken', 'application'], ['exposeTokenFiles', 'application'], ['terminalToken', 'application'], ['environmentAccounts', 'application'], ['platformHosts', 'application']]) {
			assert.equal(properties[`telematicsAuth.${key}`]?.scope, scope, key);
		}
	});

	it('lists them as restricted and says what Restricted Mode does', () => {
		const trust = manifest.capabilities.untrustedWorkspaces;
		assert.equal(trust.supported, 'limited');
		assert.deepEqual([...trust.restrictedConfigurations].sort(), ['telematicsAuth.baseUrl', 'telematicsAuth.environmentAccounts', 'telematicsAuth.extraCertificates', 'telematicsAuth.insertStyle', 'telematicsAuth.platformHosts']);
		const described = nls[trust.description.replace(/^%|%$/g, '')] ?? '';
		assert.match(described, /git is not called/);
		assert.match(described, /no env file is read or written/);
	});
});
