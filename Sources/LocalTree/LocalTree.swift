public enum LocalTree {}
