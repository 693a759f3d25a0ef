// Every command id, from one table that matches package.json's `contributes.commands` (a unit
// test holds them together). Pure: no `vscode`.

export const Command = {
	login: 'telematicsAuth.login',
	loginUser: 'telematicsAuth.loginUser',
	loginAdmin: 'telematicsAuth.loginAdmin',
	loginAgain: 'telematicsAuth.loginAgain',
	logout: 'telematicsAuth.logout',
	switchAccount: 'telematicsAuth.switchAccount',
	renameAccount: 'telematicsAuth.renameAccount',
	makeActive: 'telematicsAuth.makeActive',
	markProduction: 'telematicsAuth.markProduction',
	unmarkProduction: 'telematicsAuth.unmarkProduction',
	refresh: 'telematicsAuth.refresh',
	refreshAll: 'telematicsAuth.refreshAll',
	copyAccessToken: 'telematicsAuth.copyAccessToken',
	copyAuthorizationHeader: 'telematicsAuth.copyAuthorizationHeader',
	copyAsCurl: 'telematicsAuth.copyAsCurl',
	newRequest: 'telematicsAuth.newRequest',
	loadPlatformOperations: 'telematicsAuth.loadPlatformOperations',
	switchRequestAccount: 'telematicsAuth.switchRequestAccount',
	insertAuthorizationHeader: 'telematicsAuth.insertAuthorizationHeader',
	updateTokensInFile: 'telematicsAuth.updateTokensInFile',
	openApiExplorer: 'telematicsAuth.openApiExplorer',
	showActions: 'telematicsAuth.showActions',
	showLog: 'telematicsAuth.showLog',
	chooseTokenExposure: 'telematicsAuth.chooseTokenExposure',
	bindEnvironment: 'telematicsAuth.bindEnvironment',
	tryDemo: 'telematicsAuth.tryDemo',
	openSample: 'telematicsAuth.openSample',
	openLiveTracking: 'telematicsAuth.openLiveTracking',
	shareLiveLocation: 'telematicsAuth.shareLiveLocation',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];
