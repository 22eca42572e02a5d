"""Showing the button's messages: always a dialog, on both platforms.

First through Excel (``app.alert``: a Windows message box owned by Excel's
window, or on macOS an AppleScript ``display alert`` in Excel). When Excel
cannot be reached, without it: on macOS ``osascript`` shows an AppleScript
alert (RunPython's AppleScript started Python in the background, so nothing
written to stderr would ever be seen); on Windows the user32 MessageBoxW.
Only when no dialog can be shown at all does the text go to stderr, with exit
code 1, which the Windows VBA shows from its log.
"""
from __future__ import annotations

import subprocess
import sys
from typing import Any

TITLE = "Musterroll"


def applescript_alert(text: str, critical: bool) -> list[str]:
    """The osascript command showing ``text``; passed as arguments, never spliced into the script."""
    script = ('on run argv\n'
              f'display alert (item 1 of argv) message (item 2 of argv) as {"critical" if critical else "informational"}'
              '\nend run')
    return ["osascript", "-e", script, TITLE, text]


def alert_without_excel(text: str, critical: bool, platform: str | None = None) -> bool:
    """Show ``text`` in a dialog of the system's own; True if it was shown."""
    platform = platform or sys.platform
    try:
        if platform == "darwin":
            return subprocess.run(applescript_alert(text, critical), capture_output=True, timeout=3600).returncode == 0
        if platform == "win32":
            import ctypes

            flags = 0x10 if critical else 0x40  # MB_ICONHAND / MB_ICONASTERISK, with MB_OK
            return bool(ctypes.windll.user32.MessageBoxW(None, text, TITLE, flags | 0x40000))  # MB_TOPMOST
    except Exception:
        return False
    return False


def alert(app: Any, text: str, critical: bool, platform: str | None = None) -> None:
    """Show ``text``: in Excel if possible, else in a system dialog, else on stderr (exit code 1)."""
    if app is not None:
        try:
            app.alert(text, title=TITLE, mode="critical" if critical else "info")
            return
        except Exception:
            pass
    if alert_without_excel(text, critical, platform):
        return
    print(text, file=sys.stderr)
    raise SystemExit(1)
