// The one place the extension requires the `vscode` module; every other file imports it from here.
// VS Code's extension host answers each `require('vscode')` itself: it takes the realpath of the requiring
// file (a file-system call per folder of the path) and looks up whose extension it is. esbuild keeps one
// require per importing file, so 49 files meant 49 of those lookups while dist/extension.js loads, part of
// the activation time VS Code shows (issue 55); through this module the bundle requires it once.
import vscode = require('vscode');
export = vscode;
