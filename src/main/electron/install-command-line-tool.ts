// Carries out command-line-tool.ts's plan and says how it went: the link (with an administrator's
// password through osascript when /usr/local/bin is root's), or the user's Path through PowerShell.
import { execFile } from 'node:child_process';
import { ADD_TO_USER_PATH_PS, adminAppleScript, installedMessage, linkLauncher, type ToolPlan } from './command-line-tool';
import { assertNever } from '../../shared/domain';

export interface ToolUi {
  info(message: string): void;
  error(message: string, detail: string): void;
}

export async function installCommandLineTool(plan: ToolPlan, ui: ToolUi): Promise<void> {
  switch (plan.kind) {
    case 'none':
      ui.info(plan.message);
      return;
    case 'link': {
      const outcome = linkLauncher(plan.launcher, plan.link);
      switch (outcome.kind) {
        case 'linked':
        case 'already':
          ui.info(installedMessage(outcome.kind, plan.link));
          return;
        case 'occupied':
          ui.error('The command line tool was not installed.', outcome.message);
          return;
        case 'needs_admin': {
          const r = await run('osascript', ['-e', adminAppleScript(outcome.command)], process.env);
          if (r.code === 0) ui.info(installedMessage('linked', plan.link));
          else
            ui.error(
              'The command line tool was not installed.',
              `Making ${plan.link} needs an administrator's password${r.stderr ? ` (${r.stderr.trim()})` : ''}. To do it in Terminal instead: sudo sh -c "${outcome.command.replaceAll('"', '\\"')}"`,
            );
          return;
        }
        default:
          assertNever(outcome, 'link outcome');
      }
      return;
    }
    case 'user_path': {
      const r = await run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', ADD_TO_USER_PATH_PS], { ...process.env, BATCHDESK_BIN: plan.folder });
      const said = r.stdout.trim();
      if (r.code === 0 && (said === 'added' || said === 'present')) ui.info(installedMessage(said, plan.folder));
      else
        ui.error(
          'The command line tool was not added to your Path.',
          `PowerShell could not change your Path${r.stderr ? ` (${r.stderr.trim()})` : ''}. Add this folder yourself: Settings > System > About > Advanced system settings > Environment Variables > Path (user) > New: ${plan.folder}`,
        );
      return;
    }
    default:
      assertNever(plan, 'tool plan');
  }
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, windowsHide: true, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) || (err && typeof err.code !== 'number' ? err.message : '') });
    });
  });
}
