fn main() {
    eprintln!("engine: UCI loop not written yet");
}
