// `node --import` preload of a child forked by the stand-in's utilityProcess.fork: Electron's
// process.parentPort (messages arrive as { data }, postMessage sends) over Node's IPC channel.
import { EventEmitter } from 'node:events';

const port = new EventEmitter();
port.postMessage = (message) => process.send(message);
process.on('message', (message) => port.emit('message', { data: message, ports: [] }));
process.parentPort = port;
// Electron ends its utility processes with the app; a dead parent here closes the IPC channel.
process.on('disconnect', () => process.exit(0));
