@echo off
rem The Batchdesk command line, run by the app's own binary as Node (ELECTRON_RUN_AS_NODE=1), as
rem VS Code's code.cmd is: a desktop user needs no Node. "Install Command Line Tool..." in the
rem File menu adds this folder to the user's PATH.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Batchdesk.exe" "%~dp0..\app.asar\out\main\cli.js" %*
endlocal & exit /b %ERRORLEVEL%
