//! Writes the picture of a query to a file: `cargo run -p parlor-image --example render -- chess 'fen=...' out.png`.

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (game, query, out) = match args.as_slice() {
        [_, g, q, o] => (g.as_str(), q.as_str(), o.as_str()),
        _ => return Err("usage: render GAME QUERY OUT.png|OUT.svg".into()),
    };
    let request = parlor_image::Request::from_query(game, query)?;
    if out.ends_with(".svg") {
        std::fs::write(out, request.svg())?;
    } else {
        std::fs::write(out, parlor_image::Renderer::new().png(&request)?)?;
    }
    Ok(())
}
