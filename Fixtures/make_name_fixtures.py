#!/usr/bin/env python3
"""Writes Fixtures/names/: one picture per file-name scheme of docs/dates.md ("File-name
patterns"), GNOME Shell's in twelve languages (right-to-left and non-Latin among them), and names
that only look like a scheme. Each file is the same 16x8 gray PNG without metadata (or, for
recordings, the same bytes under a video name: the format is read from the content), so its
date can only come from its name. Python 3 standard library only; deterministic; every file's
modification time is 2001-02-03T04:05:06Z.

    python3 Fixtures/make_name_fixtures.py
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_sidecar_fixtures import MTIME, png  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "names")

NAMES = [
    # GNOME Shell 47 and later, and 42 to 46; recordings
    "Screenshot From 2024-11-29 22-15-00.png",
    "Screenshot from 2024-11-29 22-15-00-1.png",
    "Screencast From 2024-11-29 22-15-00.webm",
    # GNOME Shell's translations (generated table): de, fr, zh_CN, ko, ru, he, fa, pa, th, el, pl, uk
    "Bildschirmfoto vom 2024-11-29 22-15-00.png",
    "Capture d’écran du 2024-11-29 22-15-00.png",
    "截图 2024-11-29 22-15-00.png",
    "스크린샷 2024-11-29 22-15-00.png",
    "Снимок экрана от 2024-11-29 22-15-00.png",
    "צילום מסך מ־2024-11-29 22-15-00.png",
    "نماگرفت از 2024-11-29 22-15-00.png",
    "2024-11-29 22-15-00 ਤੋਂ ਸਕਰੀਨਸ਼ਾਟ.png",
    "ภาพหน้าจอจาก 2024-11-29 22-15-00.png",
    "Στιγμιότυπο οθόνης από 2024-11-29 22-15-00.png",
    "Zrzut ekranu z 2024-11-29 22-15-00.png",
    "Знімок екрана з 2024-11-29 22-15-00.png",
    "ضبط صفحه از 22-15-00 2024-11-29.webm",
    # Desktop tools
    "Screenshot_2024-11-29_22-15-00.png",
    "Screenshot_20241129_221500.png",
    "Screencast_20241129_221500.webm",
    "2024-11-29_22-15.png",
    "2024-11-29 22-15-00.mkv",
    "Screenshot 2024-11-29 22-15-00.png",
    "Screenshot 2024-11-29 221500.png",
    "Screenshot 2024-11-29 at 22.15.00.png",
    "2024-11-29-221500_1920x1080_scrot.png",
    "20241129_22h15m00s_grim.png",
    "ksnip_20241129-221500.png",
    "Screenshot 2024-11-29 at 22-15-00 Example Domain.png",
    "Snipaste_2024-11-29_22-15-00.png",
    "CleanShot 2024-11-29 at 22.15.00@2x.png",
    "simplescreenrecorder-2024-11-29_22.15.00.mkv",
    "Kooha-2024-11-29-22-15-00.webm",
    "vokoscreenNG-2024-11-29_22-15-00.mkv",
    "vokoscreenNG-2024-11-29_22-15-00.000.png",
    "Screen Recording 2024-11-29 221500.mp4",
    "ScreenRecording_11-29-2024 22-15-00_1.MP4",
    # Cameras: Open Camera's UTC option (an instant), DJI
    "IMG_20241129_221500Z.jpg",
    "DJI_20241129221500_0001_W.JPG",
    "LINE_P20241129_221500000.jpg",
    # ChromeOS (12-hour clock) and its screen recording
    "Screenshot 2024-11-29 10.15.00 PM.png",
    "Screen recording 2024-11-29 22.15.00.webm",
    # Game captures: the title first (ShadowPlay's replay and screenshot, Xbox Game Bar)
    "War Thunder 2024.11.29 - 22.15.00.15.DVR.mp4",
    "Hades Screenshot 2024.11.29 - 22.15.00.64.png",
    "TEKKEN 7  2024-11-29 22-15-00.mp4",
    # macOS in other languages (connector words; none in Japanese; Korean's afternoon word)
    "Bildschirmfoto 2024-11-29 um 22.15.00.png",
    "Captura de Tela 2024-11-29 às 22.15.00.png",
    "スクリーンショット 2024-11-29 22.15.00.png",
    "스크린샷 2024-11-29 오후 10.15.00.png",
    # Phones' other names and the messengers' saved pictures
    "IMG20241129221500.jpg",
    "00000IMG_00000_BURST20241129221500_COVER.jpg",
    "KakaoTalk_20241129_221500000.jpg",
    "KakaoTalk_Photo_2024-11-29-22-15-00 001.jpeg",
    "viber_image_2024-11-29_22-15-00-000.jpg",
    "Screenrecorder-2024-11-29-22-15-00-5.mp4",
    "SVID_20241129_221500_1.mp4",
    # Phones' screen recorders and Steam
    "screen-20241129-221500.mp4",
    "Screen_Recording_20241129-221500_Chrome.mp4",
    "20241129221500_1.jpg",
    # Messengers
    "photo_2024-11-29_22-15-00.jpg",
    "signal-2024-11-29-221500.jpg",
    "signal-2024-11-29-22-15-00-123-1.jpg",
    "QQ图片20241129221500.jpg",
    "TIM截图20241129221500.png",
    "微信截图_20241129221500.png",
    "WhatsApp Image 2024-11-29 at 22.15.00.jpeg",
    # Look-alikes: no date from the name, a diagnostic, the file time instead
    "photo_2024-13-45_22-15-00.jpg",
    "signal-1989-11-29-221500.jpg",
    "Screenshot From 2024-02-30 22-15-00.png",
]


def main():
    os.makedirs(ROOT, exist_ok=True)
    data = png()
    for name in NAMES:
        path = os.path.join(ROOT, name)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (MTIME, MTIME))


if __name__ == "__main__":
    main()
