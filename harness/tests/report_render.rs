//! report.html in a real browser (headless Chromium) and the speed of a 1,000-game report.

#[path = "common/report_fixture.rs"]
mod fixture;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            let ok = Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success());
            ok.then(|| PathBuf::from(name))
        })
}

/// Renders `html` to `png` with headless Chromium at the given window size.
fn screenshot(browser: &Path, html: &Path, png: &Path, size: (u32, u32)) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("--window-size={},{}", size.0, size.1))
        .arg(format!("file://{}", html.display()))
        .output()
        .unwrap();
    assert!(
        png.is_file(),
        "chromium wrote no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Share of pixels that differ clearly from the page background (the top-left pixel).
fn ink_fraction(png: &Path) -> (f64, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels: Vec<&[u8]> = buf[..info.buffer_size()].chunks(channels).collect();
    let background = pixels[0];
    let differs = |p: &&&[u8]| {
        p.iter()
            .zip(background)
            .take(3)
            .any(|(a, b)| a.abs_diff(*b) > 24)
    };
    let colours: std::collections::HashSet<&[u8]> = pixels.iter().step_by(7).copied().collect();
    (
        pixels.iter().filter(differs).count() as f64 / pixels.len() as f64,
        colours.len(),
    )
}

#[test]
fn report_html_renders_in_chromium_and_is_not_blank() {
    let Some(browser) = chromium() else {
        engine::testing::skip("chromium not found");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    fixture::write_synthetic_run(tmp.path(), 100, 11, true);
    harness::report::write_reports(tmp.path()).unwrap();
    let png = tmp.path().join("report.png");
    screenshot(
        &browser,
        &tmp.path().join("report.html"),
        &png,
        (1200, 2000),
    );
    let (ink, colours) = ink_fraction(&png);
    eprintln!(
        "screenshot: {:.1}% non-background pixels, {colours} colours",
        100.0 * ink
    );
    assert!(
        ink > 0.05,
        "screenshot looks blank: {:.2}% ink",
        100.0 * ink
    );
    // Plots in colour, not only text: wins, losses and the palette.
    assert!(colours > 20, "only {colours} colours in the screenshot");
}

/// `cargo test -p harness --release --test report_render -- --ignored --nocapture`
/// Times a report of a synthetic 1,000-game run (target: under a second), and with
/// REPORT_SCREENSHOT=path also saves a screenshot of it.
#[test]
#[ignore = "benchmark"]
fn bench_report_of_1000_games() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("base_vs_dev");
    fixture::write_synthetic_run(&dir, 500, 42, true);
    let mut best = f64::INFINITY;
    for _ in 0..5 {
        let start = Instant::now();
        harness::report::write_reports(&dir).unwrap();
        best = best.min(start.elapsed().as_secs_f64());
    }
    let html_size = std::fs::metadata(dir.join("report.html")).unwrap().len();
    println!(
        "report of 1000 games: {:.1} ms (best of 5), report.html {} KB",
        best * 1000.0,
        html_size / 1024
    );
    if let Some(browser) = chromium() {
        let png =
            std::env::var("REPORT_SCREENSHOT").map_or(tmp.path().join("shot.png"), PathBuf::from);
        let start = Instant::now();
        screenshot(&browser, &dir.join("report.html"), &png, (1280, 3000));
        println!(
            "chromium headless screenshot: {:.0} ms (browser start included)",
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
}
