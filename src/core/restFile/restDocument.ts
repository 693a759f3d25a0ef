// Which documents are REST files: `.http`/`.rest` by name, or language `http` (REST Client, httpYac), in
// any scheme, untitled included (features/restFiles/restDocuments.ts's REST_SELECTOR says the same to VS
// Code). Pure: a VS Code TextDocument is such a document.
export function isRestDocument(document: { readonly languageId: string; readonly uri: { readonly path: string } }): boolean {
	return document.languageId === 'http' || /\.(http|rest)$/i.test(document.uri.path);
}
