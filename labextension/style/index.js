import './base.css';
import './hints.css';
